package io.jvmps.client.train;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** GEO rounds: local SGD on the graph, deltas against the last pull divided by the workers, round numbers. */
class GeoRoundsTest {

    private static SameDiffGraph graph() {
        var sd = org.nd4j.autodiff.samediff.SameDiff.create();
        var x = sd.placeHolder("x", DataType.FLOAT, -1, 2);
        var y = sd.placeHolder("y", DataType.FLOAT, -1, 2);
        var w = sd.var("w", Nd4j.create(new float[]{1f, 2f, 3f, 4f}, new long[]{2, 2}, 'c'));
        var logits = x.mmul(w);
        sd.nn().softmax("p", logits, 1);
        sd.loss().softmaxCrossEntropy("loss", y, logits, null);
        return SameDiffGraph.of(sd, new GraphNames("x", "y", "loss", "p"), "tiny");
    }

    @Test
    void aLocalStepMovesTheGraphAndTheDeltaIsItsChangeOverTheWorkers() {
        SameDiffGraph graph = graph();
        GeoRounds geo = new GeoRounds(graph, graph.params(), 4, 0.5, 2, 10);
        assertThat(geo.pulled()).isFalse();
        geo.pulledFrom(new INDArray[]{graph.param("w")});
        assertThat(geo.pulled()).isTrue();
        INDArray gradient = Nd4j.create(new float[]{2f, 0f, -4f, 1f}, new long[]{2, 2}, 'c');
        geo.trainLocally(new StepResult(0.7, Map.of("w", gradient)));
        assertThat(graph.param("w").ravel().toFloatVector()).containsExactly(0f, 2f, 5f, 3.5f);
        assertThat(geo.deltas()[0].ravel().toFloatVector()).containsExactly(-0.5f, 0f, 1f, -0.25f);
        geo.forget();
        assertThat(geo.pulled()).isFalse();
    }

    @Test
    void roundsEndEveryIntervalAndAfterTheLastStep() {
        GeoRounds geo = new GeoRounds(graph(), graph().params(), 4, 0.1, 2, 10);
        assertThat(List.of(1L, 3L, 4L, 5L, 8L, 9L, 10L).stream().filter(geo::roundEnds).toList())
                .containsExactly(4L, 8L, 10L);
        assertThat(geo.round(4)).isZero();
        assertThat(geo.round(8)).isEqualTo(1);
        assertThat(geo.round(10)).isEqualTo(2);
        assertThat(geo.pullVersion(8)).as("mid-job pulls wait for nothing").isZero();
        assertThat(geo.pullVersion(10)).as("the last waits for every worker's 3 rounds").isEqualTo(3);
        assertThatThrownBy(() -> new GeoRounds(graph(), graph().params(), 0, 0.1, 2, 10))
                .hasMessageContaining("GEO interval must be >= 1, got 0");
    }
}

package io.jvmps.client.train;

import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.InferenceSession;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graph that runs step after step keeps bounded sessions: nd4j's session remembers every array id it freed,
 * and one that has remembered too many is replaced, after which the graph computes what it did before.
 */
class FreshSessionArraysTest {
    private static final GraphNames NAMES = new GraphNames("x", "y", "xent", "p");

    @Test
    void aSessionThatRememberedTooManyFreedArraysIsReplacedAndTheGradientsStayTheSame() {
        SameDiffGraph graph = SameDiffGraph.of(SameDiffGraphTest.linear("xent"), NAMES, "linear", List.of("w", "b"));
        INDArray x = Nd4j.create(new float[]{1, 2, 3, -1, 0, 1}, new long[]{2, 3}, 'c');
        INDArray y = Nd4j.create(new float[]{1, 0, 0, 1}, new long[]{2, 2}, 'c');
        float[] first = graph.gradients(x, y).gradients().get("w").ravel().toFloatVector();
        SameDiff grad = graph.sameDiff().getFunction("grad");
        InferenceSession before = session(grad);
        assertThat(before).isInstanceOf(FreshSessionArrays.BoundedSession.class);

        int runs = 1;
        while (session(grad) == before && runs < 20 * FreshSessionArrays.MAX_FREED_IDS) {
            assertThat(((FreshSessionArrays.BoundedSession) before).freedIds())
                    .as("ids remembered before the replacement").isLessThanOrEqualTo(FreshSessionArrays.MAX_FREED_IDS + 100);
            graph.gradients(x, y);
            runs++;
        }
        assertThat(session(grad)).as("replaced after %d runs", runs).isNotSameAs(before);
        assertThat(((FreshSessionArrays.BoundedSession) session(grad)).freedIds())
                .isLessThan(FreshSessionArrays.MAX_FREED_IDS);
        assertThat(graph.gradients(x, y).gradients().get("w").ravel().toFloatVector())
                .as("the same gradients from the new session").containsExactly(first);
    }

    private static InferenceSession session(SameDiff graph) {
        return graph.getSessions().get(Thread.currentThread().getId());
    }
}

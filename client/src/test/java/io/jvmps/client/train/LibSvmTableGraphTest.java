package io.jvmps.client.train;

import io.jvmps.client.dataset.LabelKind;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.LibSvmIds;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** A LibSVM file's features feed a graph's table lookup: the ids, values and mask, then one training pass. */
class LibSvmTableGraphTest {
    @TempDir
    Path dir;

    private LibSvmFile file() throws Exception {
        Path path = dir.resolve("clicks.svm");
        Files.writeString(path, "+1 1:0.5 3:2\n-1 2:1\n+1 3:1 4:-1 5:3\n");
        return LibSvmFile.open(path, 0, 0);
    }

    @Test
    void aBatchHoldsEachRowsFeatureIdsValuesAndMaskPaddedToTheWidestRow() throws Exception {
        LabeledData batch = LibSvmIds.of(file(), "x", LabelKind.BINARY).gather(new int[] {0, 1, 2});
        assertThat(batch.ids().get("x").toLongMatrix()).isEqualTo(new long[][] {{0, 2, 0}, {1, 0, 0}, {2, 3, 4}});
        assertThat(batch.ids().get("x_values").toFloatMatrix())
                .isEqualTo(new float[][] {{0.5f, 2, 0}, {1, 0, 0}, {1, -1, 3}});
        assertThat(batch.ids().get("x_mask").toFloatMatrix()).isEqualTo(new float[][] {{1, 1, 0}, {1, 0, 0}, {1, 1, 1}});
        assertThat(batch.labels().toFloatMatrix()).isEqualTo(new float[][] {{1}, {0}, {1}});
        assertThat(batch.features().columns()).isZero();
        LabeledData classes = LibSvmIds.of(file(), "x", LabelKind.CLASS).gather(new int[] {1});
        assertThat(classes.labels().toFloatMatrix()).isEqualTo(new float[][] {{1, 0}});
    }

    @Test
    void aSparseLogisticRegressionOnATableTrainsFromTheFile() throws Exception {
        SameDiff sd = SameDiff.create();
        SDVariable ids = sd.placeHolder("x", DataType.INT64, -1, -1);
        SDVariable values = sd.placeHolder("x_values", DataType.FLOAT, -1, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable weights = sd.var("weights", Nd4j.zeros(DataType.FLOAT, 5, 1));
        SDVariable bias = sd.var("bias", Nd4j.zeros(DataType.FLOAT, 1, 1));
        SDVariable logit = sd.gather(weights, ids, 0).sum(2).mul(values).sum(true, 1).add(bias); // [n, 1]
        sd.nn().sigmoid(logit).rename("prediction");
        sd.nn().softplus(logit).sub(label.mul(logit)).mean().rename("loss");
        SameDiffGraph graph = SameDiffGraph.withTables(sd, new GraphNames("input", "label", "loss", "prediction"),
                "sparse-lr", EmbeddingTable.of("weights"));

        LabeledData batch = LibSvmIds.of(file(), "x", LabelKind.BINARY).gather(new int[] {0, 1, 2});
        TableRows rows = TableRows.of(graph.tables(), batch.ids());
        TableStep.direct().fill(rows, new RowMapClient()); // row k of the servers holds k
        StepResult step = graph.gradients(batch.features(), batch.labels(), rows.lookupRows(), batch.ids());

        // logits 0*0.5 + 2*2 = 4, 1*1 = 1, 2*1 - 3 + 4*3 = 11; labels 1, 0, 1
        double expected = (softplus(4) - 4 + softplus(1) + softplus(11) - 11) / 3;
        assertThat(step.loss()).isCloseTo(expected, within(1e-5));
    }

    @Test
    void realLabelsAndAThreeClassFileAsClicksAreRefused() throws Exception {
        assertThatThrownBy(() -> LibSvmIds.of(file(), "x", LabelKind.REAL)).isInstanceOf(PsException.class)
                .hasMessageContaining("not REAL");
        Path three = dir.resolve("three.svm");
        Files.writeString(three, "0 1:1\n2 2:1\n");
        assertThatThrownBy(() -> LibSvmIds.of(LibSvmFile.open(three, 0, 0), "x", LabelKind.BINARY))
                .isInstanceOf(PsException.class).hasMessageContaining("3");
    }

    private static double softplus(double x) {
        return Math.log1p(Math.exp(x));
    }
}

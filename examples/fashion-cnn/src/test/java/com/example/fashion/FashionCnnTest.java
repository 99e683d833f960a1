package com.example.fashion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FashionCnnTest {
    @TempDir
    Path dir;

    @Test
    void theSavedNetworkLoadsAndGivesClassProbabilitiesAndAFiniteLoss() {
        File file = dir.resolve("cnn.sd").toFile();
        FashionCnn.build(1).save(file, false);
        SameDiff sd = SameDiff.load(file, false);

        long params = sd.variables().stream().filter(v -> v.getVariableType().name().equals("VARIABLE"))
                .mapToLong(v -> v.getArr().length()).sum();
        assertEquals(114_314, params);
        INDArray x = Nd4j.rand(DataType.FLOAT, 3, 784);
        INDArray y = Nd4j.zeros(DataType.FLOAT, 3, 10);
        y.putScalar(0, 1, 1f);
        y.putScalar(1, 4, 1f);
        y.putScalar(2, 9, 1f);
        Map<String, INDArray> out = sd.output(Map.of("input", x, "label", y), "probabilities", "loss");
        assertArrayEquals(new long[]{3, 10}, out.get("probabilities").shape());
        assertEquals(3.0, out.get("probabilities").sumNumber().doubleValue(), 1e-4);
        assertTrue(Double.isFinite(out.get("loss").getDouble(0)));
    }
}

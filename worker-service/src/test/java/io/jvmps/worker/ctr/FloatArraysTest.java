package io.jvmps.worker.ctr;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FloatArraysTest {

    @Test
    void copiesInBothDirectionsInRowMajorOrder() {
        float[] values = {1, 2, 3, 4, 5, 6};
        INDArray array = FloatArrays.toNd4j(values, 2, 3);
        assertThat(array.shape()).containsExactly(2, 3);
        assertThat(array.getFloat(1, 0)).isEqualTo(4f);
        assertThat(FloatArrays.toFloats(array)).containsExactly(values);
    }

    @Test
    void readsViewsAndOtherTypesInCOrder() {
        INDArray matrix = Nd4j.createFromArray(new double[][] {{1, 2}, {3, 4}});
        assertThat(FloatArrays.toFloats(matrix.transpose())).containsExactly(1, 3, 2, 4);
        assertThat(FloatArrays.toFloats(Nd4j.create(DataType.FLOAT, 3, 2).getRow(1))).containsExactly(0, 0);
    }

    @Test
    void refusesValuesThatDoNotFillTheShape() {
        assertThatThrownBy(() -> FloatArrays.toNd4j(new float[5], 2, 3)).hasMessageContaining("5 values for shape [2, 3]");
    }
}

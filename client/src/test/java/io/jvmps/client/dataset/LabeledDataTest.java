package io.jvmps.client.dataset;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabeledDataTest {
    private final LabeledData data = new LabeledData(
            Nd4j.arange(0, 12).castTo(DataType.FLOAT).reshape(4, 3),
            Nd4j.eye(4).castTo(DataType.FLOAT).get(NDArrayIndex.all(),
                    NDArrayIndex.interval(0, 2)));

    @Test
    void rowsAndGatherReturnCopiesOfTheRequestedRows() {
        LabeledData middle = data.rows(1, 3);
        assertThat(middle.size()).isEqualTo(2);
        assertThat(middle.features().toFloatMatrix()).isEqualTo(new float[][] {{3, 4, 5}, {6, 7, 8}});

        LabeledData picked = data.gather(new int[] {3, 0, 3});
        assertThat(picked.features().toFloatMatrix()).isEqualTo(new float[][] {{9, 10, 11}, {0, 1, 2}, {9, 10, 11}});
        assertThat(picked.labels().toFloatMatrix()).isEqualTo(new float[][] {{0, 0}, {1, 0}, {0, 0}});

        middle.features().addi(100);
        picked.features().addi(100);
        assertThat(data.features().getFloat(1, 0)).isEqualTo(3f);
        assertThat(data.features().getFloat(0, 0)).isEqualTo(0f);
        assertThat(data.featureSize()).isEqualTo(3);
        assertThat(data.numClasses()).isEqualTo(2);
    }

    @Test
    void rejectsMismatchedRowsAndBadIndices() {
        INDArray f = Nd4j.zeros(DataType.FLOAT, 3, 2);
        INDArray l = Nd4j.zeros(DataType.FLOAT, 2, 2);
        assertThatThrownBy(() -> new LabeledData(f, l)).hasMessageContaining("3 rows").hasMessageContaining("2");
        assertThatThrownBy(() -> data.rows(2, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> data.gather(new int[] {4})).hasMessageContaining("row index 4");
    }
}

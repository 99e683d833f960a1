package io.jvmps.optimizer;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DenseSumsTest {

    /** Lengths below, at and across the block size, so the last partial block is covered. */
    private static final int[] LENGTHS = {1, 7, Blocks.SIZE, Blocks.SIZE + 1, 3 * Blocks.SIZE + 123};

    @Test
    void addAndDivideGiveNd4jsFloatsExactly() {
        Random random = new Random(11);
        for (int length : LENGTHS) {
            float[] a = randomFloats(random, length);
            float[] b = randomFloats(random, length);
            INDArray sum = Nd4j.createFromArray(a.clone());
            DenseSums.add(sum, Nd4j.createFromArray(b.clone()));
            INDArray expected = Nd4j.createFromArray(a.clone()).addi(Nd4j.createFromArray(b.clone()));
            assertThat(sum.toFloatVector()).as("sum of %d", length).containsExactly(expected.toFloatVector());

            DenseSums.divide(sum, 3);
            assertThat(sum.toFloatVector()).as("divided, %d", length).containsExactly(expected.divi(3).toFloatVector());
        }
    }

    @Test
    void aReshapedWholeArrayIsAccepted() {
        INDArray sum = Nd4j.ones(DataType.FLOAT, 6, 5);
        DenseSums.add(sum, Nd4j.ones(DataType.FLOAT, 30).reshape(5, 6));
        assertThat(sum.toFloatMatrix()[4]).containsOnly(2f);
    }

    @Test
    void mismatchedOrPartialArraysAreRefusedUnchanged() {
        INDArray sum = Nd4j.ones(DataType.FLOAT, 8);
        assertThatThrownBy(() -> DenseSums.add(sum, Nd4j.ones(DataType.FLOAT, 9)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("cannot add 9 elements into 8");
        assertThatThrownBy(() -> DenseSums.add(sum, Nd4j.ones(DataType.DOUBLE, 8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("addend must be a whole float32 array");
        INDArray big = Nd4j.ones(DataType.FLOAT, 16);
        assertThatThrownBy(() -> DenseSums.divide(big.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(8, 16)), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("array must be a whole float32 array");
        assertThat(sum.toFloatVector()).containsOnly(1f);
        assertThat(big.toFloatVector()).containsOnly(1f);
    }

    private static float[] randomFloats(Random random, int length) {
        float[] v = new float[length];
        for (int i = 0; i < length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }
}

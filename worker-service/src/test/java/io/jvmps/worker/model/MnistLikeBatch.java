package io.jvmps.worker.model;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

/** Test data shaped like MNIST batches: 784 pixels per row, about a fifth lit in [0, 1]; one-hot labels. */
final class MnistLikeBatch {
    private MnistLikeBatch() {
    }

    /** @return {@code rows} x 784 seeded pixel rows */
    static INDArray features(int rows, long seed) {
        Random random = new Random(seed);
        float[][] x = new float[rows][784];
        for (float[] row : x) {
            for (int j = 0; j < row.length; j++) {
                row[j] = random.nextDouble() < 0.2 ? random.nextFloat() : 0f;
            }
        }
        return Nd4j.create(x);
    }

    /** @return {@code rows} x 10 one-hot labels, row i of class i mod 10 */
    static INDArray cyclingLabels(int rows) {
        float[][] y = new float[rows][10];
        for (int i = 0; i < rows; i++) {
            y[i][i % 10] = 1;
        }
        return Nd4j.create(y);
    }

    /** @return {@code rows} x 10 one-hot labels of seeded random classes */
    static INDArray randomLabels(int rows, long seed) {
        Random random = new Random(seed);
        float[][] y = new float[rows][10];
        for (float[] row : y) {
            row[random.nextInt(10)] = 1;
        }
        return Nd4j.create(y);
    }
}

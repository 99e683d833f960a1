package io.jvmps.client.dataset;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

/**
 * Seeded Gaussian blobs for fast tests: {@code classes} centres drawn once from
 * {@code N(0, separation^2)} per dimension, and each example is its class centre plus
 * {@code N(0, 1)} noise. Classes are assigned round-robin, so every class has
 * {@code n / classes} examples (+1 for the first {@code n % classes}). The same seed gives the same
 * centres, so {@code generate(n, seed, ...)} with equal {@code centreSeed} yields train and test
 * sets from one distribution. Stateless.
 */
public final class SyntheticData {

    private SyntheticData() {
    }

    /**
     * @param n          number of examples, &gt;= 1
     * @param dims       features per example, &gt;= 1
     * @param classes    number of classes, &gt;= 2
     * @param separation standard deviation of the class centres (larger is easier), &gt; 0
     * @param seed       seeds both the centres and the noise
     * @return float32 features {@code [n, dims]} and one-hot labels {@code [n, classes]}
     */
    public static LabeledData blobs(int n, int dims, int classes, double separation, long seed) {
        return blobs(n, dims, classes, separation, seed, seed);
    }

    /**
     * Like {@link #blobs(int, int, int, double, long)} but with separate seeds, so a train and a
     * test set share centres ({@code centreSeed}) but not noise ({@code sampleSeed}).
     */
    public static LabeledData blobs(int n, int dims, int classes, double separation, long centreSeed,
                                    long sampleSeed) {
        if (n < 1 || dims < 1 || classes < 2 || !(separation > 0)) {
            throw new IllegalArgumentException("need n >= 1, dims >= 1, classes >= 2, separation > 0; got n=" + n
                    + " dims=" + dims + " classes=" + classes + " separation=" + separation);
        }
        Random centreRandom = new Random(centreSeed);
        double[][] centres = new double[classes][dims];
        for (double[] centre : centres) {
            for (int j = 0; j < dims; j++) {
                centre[j] = centreRandom.nextGaussian() * separation;
            }
        }
        Random noise = new Random(sampleSeed * 0x9E3779B97F4A7C15L + 1);
        float[] features = new float[Math.multiplyExact(n, dims)];
        int[] classIds = new int[n];
        for (int i = 0; i < n; i++) {
            int c = i % classes;
            classIds[i] = c;
            for (int j = 0; j < dims; j++) {
                features[i * dims + j] = (float) (centres[c][j] + noise.nextGaussian());
            }
        }
        return new LabeledData(Nd4j.create(features, new long[] {n, dims}, DataType.FLOAT),
                Tensors.oneHot(classIds, classes));
    }
}

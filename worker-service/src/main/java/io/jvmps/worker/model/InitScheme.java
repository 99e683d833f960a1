package io.jvmps.worker.model;

import java.util.Random;

/** How a parameter's initial values are drawn: zero-mean normals scaled by fan-in/fan-out, or zeros. */
public enum InitScheme {
    /** He et al.: {@code N(0, 2 / fanIn)}, for layers followed by ReLU. */
    HE_NORMAL {
        @Override
        double std(int fanIn, int fanOut) {
            return Math.sqrt(2.0 / fanIn);
        }
    },
    /** Glorot/Xavier: {@code N(0, 2 / (fanIn + fanOut))}, for linear or softmax outputs. */
    XAVIER_NORMAL {
        @Override
        double std(int fanIn, int fanOut) {
            return Math.sqrt(2.0 / (fanIn + fanOut));
        }
    },
    /**
     * Xavier normal scaled by 0.1, for a classifier's last layer: the initial logits are near zero, so
     * the initial predictions are near uniform (loss close to ln k) while every layer still gets a
     * non-zero gradient.
     */
    OUTPUT_NORMAL {
        @Override
        double std(int fanIn, int fanOut) {
            return 0.1 * Math.sqrt(2.0 / (fanIn + fanOut));
        }
    },
    /** All zeros (biases). */
    ZEROS {
        @Override
        double std(int fanIn, int fanOut) {
            return 0;
        }
    };

    abstract double std(int fanIn, int fanOut);

    /**
     * @param random source of normals; advanced only by non-zero schemes
     * @param count  number of values
     * @return {@code count} values drawn from this scheme
     */
    public float[] sample(Random random, int count, int fanIn, int fanOut) {
        float[] out = new float[count];
        double std = std(fanIn, fanOut);
        if (std != 0) {
            for (int i = 0; i < count; i++) {
                out[i] = (float) (random.nextGaussian() * std);
            }
        }
        return out;
    }
}

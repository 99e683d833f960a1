package io.jvmps.worker.model.baseline;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.util.HashMap;
import java.util.Map;

/**
 * Adam (Kingma and Ba) with bias correction, beta1 0.9, beta2 0.999, epsilon 1e-8. The moments and
 * the step count are kept per parameter name. Not thread-safe.
 */
public final class AdamOptimizer implements LocalOptimizer {
    private static final double BETA1 = 0.9;
    private static final double BETA2 = 0.999;
    private static final double EPSILON = 1e-8;

    private final double learningRate;
    private final Map<String, State> states = new HashMap<>();

    /** @param learningRate step size, &gt; 0 */
    public AdamOptimizer(double learningRate) {
        if (!(learningRate > 0)) {
            throw new IllegalArgumentException("learning rate must be > 0, got " + learningRate);
        }
        this.learningRate = learningRate;
    }

    @Override
    public void apply(String name, INDArray param, INDArray gradient) {
        State s = states.computeIfAbsent(name, n -> new State(param.ulike().assign(0), param.ulike().assign(0)));
        s.step++;
        s.m.muli(BETA1).addi(gradient.mul(1 - BETA1));
        s.v.muli(BETA2).addi(gradient.mul(gradient).muli(1 - BETA2));
        double alpha = learningRate * Math.sqrt(1 - Math.pow(BETA2, s.step)) / (1 - Math.pow(BETA1, s.step));
        INDArray denominator = Transforms.sqrt(s.v, true).addi(EPSILON);
        param.subi(s.m.div(denominator).muli(alpha));
    }

    private static final class State {
        final INDArray m;
        final INDArray v;
        long step;

        State(INDArray m, INDArray v) {
            this.m = m;
            this.v = v;
        }
    }
}

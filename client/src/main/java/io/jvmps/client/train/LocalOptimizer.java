package io.jvmps.client.train;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.optimizer.OptimizerType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.HashMap;
import java.util.Map;

/**
 * The servers' optimizer ({@link Optimizer}, the one implementation) applied on a worker to whole named
 * parameters: it keeps each parameter's state and update count as a server keeps them per slice, so a
 * parameter updated here moves exactly as it would on the servers with the same settings (schedule
 * and bias correction count that parameter's updates from 1). Used by hybrid workers for their local
 * parameters and by the single-process baseline trainer. Not thread-safe.
 */
public final class LocalOptimizer {
    private final Optimizer optimizer;
    private final Map<String, Slot> slots = new HashMap<>();

    /**
     * @param type     the optimizer
     * @param settings its hyper-parameters and schedule
     */
    public LocalOptimizer(OptimizerType type, OptimizerSettings settings) {
        if (!(settings.learningRate() > 0)) {
            throw new IllegalArgumentException("learning rate must be > 0, got " + settings.learningRate());
        }
        this.optimizer = type.create(settings);
    }

    /**
     * @param type         the optimizer
     * @param learningRate its constant learning rate, &gt; 0
     * @return an optimizer with the servers' default hyper-parameters ({@code ps.optimizer.*}) and no schedule
     */
    public static LocalOptimizer of(OptimizerType type, double learningRate) {
        return new LocalOptimizer(type, OptimizerSettings.defaults(learningRate));
    }

    /**
     * Updates {@code param} in place with one gradient.
     *
     * @param name     parameter name (keys the state and the update count)
     * @param param    any shape and float type; updated in place
     * @param gradient the batch-averaged gradient, same number of elements; not modified
     */
    public void apply(String name, INDArray param, INDArray gradient) {
        long length = param.length();
        if (gradient.length() != length) {
            throw new IllegalArgumentException("gradient of " + name + " has " + gradient.length()
                    + " elements, the parameter " + length);
        }
        Slot slot = slots.computeIfAbsent(name, n -> new Slot(optimizer.newState(Math.toIntExact(length))));
        slot.updates++;
        INDArray values = param.castTo(DataType.FLOAT).dup('c').reshape(length);
        INDArray g = gradient.castTo(DataType.FLOAT).dup('c').reshape(length);
        optimizer.apply(values, g, slot.state, slot.updates);
        param.assign(values.reshape(param.shape()));
    }

    /** @return the optimizer with its hyper-parameters and schedule, for logs */
    public String describe() {
        return optimizer.describe();
    }

    private static final class Slot {
        final OptimizerState state;
        long updates;

        Slot(OptimizerState state) {
            this.state = state;
        }
    }
}

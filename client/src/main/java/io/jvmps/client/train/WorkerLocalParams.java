package io.jvmps.client.train;

import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;
import java.util.function.Supplier;

/**
 * The parameters a model keeps on the workers (MindSpore's parameters without {@code set_param_ps}), for
 * the library's {@link SameDiffTrainer} and the stock worker's hybrid placement alike: after every step their gradients, flattened in parameter order, are averaged over
 * the workers by the ring AllReduce and applied to this worker's copy with the servers' own update rule,
 * and the copy is written into the graph. Every worker starts from the same values (the graph's, built
 * with one seed) and applies the same averages, so the copies stay equal. Not thread-safe: the training
 * thread's.
 */
public final class WorkerLocalParams {
    private final java.util.function.BiConsumer<String, INDArray> setParam;
    private final List<ParamSpec> local;
    private final LocalOptimizer optimizer;
    private final Supplier<RingAllReduce> ring;
    private final INDArray[] values;
    private final float[] buffer;

    /**
     * @param getParam  a parameter's current value in the model (its initial value here)
     * @param setParam  writes a parameter's value into the model
     * @param local     the worker-local parameters, in the model's order
     * @param optimizer the servers' update rule ({@link HybridUpdateRule#forServers})
     * @param ring      the workers' AllReduce, asked for at the first step (when every worker has joined)
     */
    public WorkerLocalParams(java.util.function.Function<String, INDArray> getParam,
                             java.util.function.BiConsumer<String, INDArray> setParam, List<ParamSpec> local,
                             LocalOptimizer optimizer, Supplier<RingAllReduce> ring) {
        this.setParam = setParam;
        this.local = List.copyOf(local);
        this.optimizer = optimizer;
        this.ring = ring;
        this.values = new INDArray[local.size()];
        long total = 0;
        for (int p = 0; p < local.size(); p++) {
            values[p] = getParam.apply(local.get(p).name()).castTo(DataType.FLOAT).dup('c');
            total += local.get(p).elements();
        }
        this.buffer = new float[Math.toIntExact(total)];
    }

    /** @return the worker-local parameters */
    public List<ParamSpec> params() {
        return local;
    }

    /** @return float32 values averaged per step */
    public int size() {
        return buffer.length;
    }

    /**
     * Averages the step's gradients of the local parameters over the workers and applies them.
     *
     * @param step   the step every worker computed these gradients in (the AllReduce's key)
     * @param result the step's gradients, those of every local parameter included
     * @throws io.jvmps.common.protocol.PsException from the AllReduce: TIMEOUT naming a peer that did not
     *                                              answer, NOT_READY for one that cannot be reached
     */
    public void afterStep(long step, StepResult result) {
        int offset = 0;
        for (ParamSpec spec : local) {
            float[] g = result.gradients().get(spec.name()).castTo(DataType.FLOAT).dup('c').data().asFloat();
            System.arraycopy(g, 0, buffer, offset, g.length);
            offset += g.length;
        }
        ring.get().average(step, buffer);
        offset = 0;
        for (int p = 0; p < local.size(); p++) {
            ParamSpec spec = local.get(p);
            int n = (int) spec.elements();
            float[] part = new float[n];
            System.arraycopy(buffer, offset, part, 0, n);
            offset += n;
            optimizer.apply(spec.name(), values[p], Nd4j.create(part, values[p].shape(), 'c'));
            setParam.accept(spec.name(), values[p]);
        }
    }
}

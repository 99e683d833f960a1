package io.jvmps.worker.train.loop;

import io.jvmps.client.schedule.Steps;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

/**
 * The sum, per PS-managed parameter, of every gradient this worker pushed, kept only when the worker
 * exports its parameters ({@code ps.worker.output.parameters-dir}): with SGD on the servers, the initial parameters
 * minus the learning rate times the sum over all workers must equal what the servers end with, which the
 * multi-process tests check in ASYNC and SSP. Steps a rollback undid are counted again when re-pushed.
 * Used by the one training thread; not thread-safe.
 */
public final class PushedGradients {
    private final List<ParamSpec> specs;
    private final INDArray[] sums;

    private PushedGradients(List<ParamSpec> specs, INDArray[] sums) {
        this.specs = specs;
        this.sums = sums;
    }

    /** @return a sum that records nothing */
    public static PushedGradients none() {
        return new PushedGradients(List.of(), null);
    }

    /** @param specs the PS-managed parameters, in push order */
    public static PushedGradients of(List<ParamSpec> specs) {
        INDArray[] sums = new INDArray[specs.size()];
        for (int p = 0; p < specs.size(); p++) {
            sums[p] = Nd4j.zeros(DataType.FLOAT, specs.get(p).shape());
        }
        return new PushedGradients(specs, sums);
    }

    /** @param gradients one push, in the order of the specs */
    public void add(INDArray[] gradients) {
        if (sums == null) {
            return;
        }
        for (int p = 0; p < sums.length; p++) {
            sums[p].addi(gradients[p].reshape(sums[p].shape()));
        }
    }

    /** @return the parameters and their sums; empty when nothing is recorded */
    public List<ParamSpec> specs() {
        return sums == null ? List.of() : specs;
    }

    /** @return the sum of parameter {@code p} (order of {@link #specs()}) */
    public INDArray sum(int p) {
        return sums[p];
    }
}

package io.jvmps.worker.train.loop;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

/**
 * The worker's copy of the PS-managed parameters as dense arrays in model order (the layout
 * {@link DenseClient} reads and writes), and the moves between those arrays, the servers and the
 * model. Not thread-safe.
 */
public final class ModelParameters {
    private final TrainableModel model;
    private final List<ParamSpec> specs;
    private final INDArray[] values;

    public ModelParameters(TrainableModel model) {
        this.model = model;
        this.specs = model.psParams();
        this.values = new INDArray[specs.size()];
        for (int p = 0; p < specs.size(); p++) {
            values[p] = Nd4j.create(DataType.FLOAT, specs.get(p).shape(), 'c');
        }
    }

    /** @return the arrays, in model order */
    public INDArray[] values() {
        return values;
    }

    /** Pulls every parameter at a version into the arrays and the model. */
    public void pullIntoModel(DenseClient client, long version) {
        client.pull(version, values);
        copyIntoModel();
    }

    /** Writes the arrays into the model's variables. */
    public void copyIntoModel() {
        for (int p = 0; p < specs.size(); p++) {
            model.setParam(specs.get(p).name(), values[p]);
        }
    }

    /** @return the step's gradients of the PS-managed parameters, in model order */
    public INDArray[] gradients(StepResult result) {
        INDArray[] grads = new INDArray[specs.size()];
        for (int p = 0; p < specs.size(); p++) {
            grads[p] = result.gradients().get(specs.get(p).name());
            if (grads[p] == null) {
                throw new IllegalStateException("model produced no gradient for " + specs.get(p).name());
            }
        }
        return grads;
    }
}

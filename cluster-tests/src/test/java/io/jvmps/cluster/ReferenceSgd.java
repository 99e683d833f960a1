package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.data.EpochBatches;
import io.jvmps.worker.data.LabeledData;
import io.jvmps.worker.data.SyntheticData;
import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plain single-process SGD on the softmax model and the synthetic data the workers use with
 * {@code --ps.worker.data=SYNTHETIC}: each step's gradient is the mean of the W workers' batch
 * gradients for that step. The yardstick the cluster runs are compared with.
 */
final class ReferenceSgd {
    static final int FEATURES = 784;
    static final int CLASSES = 10;

    private ReferenceSgd() {
    }

    /** @return the parameters after {@code steps} steps */
    static Map<String, INDArray> train(int samples, int workers, int batch, long seed, int steps, double lr) {
        LabeledData data = SyntheticData.blobs(samples, FEATURES, CLASSES, 0.1, seed, seed);
        TrainableModel model = ModelType.SOFTMAX.create(FEATURES, CLASSES);
        Map<String, INDArray> params = new HashMap<>();
        model.initialParams(seed).forEach((k, v) -> params.put(k, v.dup()));
        int stepsPerEpoch = new EpochBatches(samples, workers, 0, batch, seed, 1).stepsPerEpoch();
        for (int global = 0; global < steps; global++) {
            int epoch = global / stepsPerEpoch + 1;
            int step = global % stepsPerEpoch;
            Map<String, INDArray> sum = new HashMap<>();
            for (int r = 0; r < workers; r++) {
                params.forEach(model::setParam);
                LabeledData b = data.gather(new EpochBatches(samples, workers, r, batch, seed, epoch).batchIndices(step));
                StepResult result = model.gradients(b.features(), b.labels());
                result.gradients().forEach((k, g) -> sum.merge(k, g.dup(), INDArray::add));
            }
            for (ParamSpec spec : model.params()) {
                INDArray avg = sum.get(spec.name()).div(workers);
                params.put(spec.name(), params.get(spec.name()).sub(avg.mul(lr)));
            }
        }
        return params;
    }

    /** @return the initial parameters for a seed */
    static Map<String, INDArray> initial(long seed) {
        return ModelType.SOFTMAX.create(FEATURES, CLASSES).initialParams(seed);
    }

    /** Asserts that a worker's exported parameters equal the expected ones within {@code tolerance}. */
    static void assertWorkerParams(Path outputDir, int rank, Map<String, INDArray> expected, double tolerance) {
        for (Map.Entry<String, INDArray> e : expected.entrySet()) {
            INDArray actual = Nd4j.createFromNpyFile(outputDir.resolve("worker-" + rank).resolve(e.getKey() + ".npy")
                    .toFile()).reshape(e.getValue().shape());
            double maxAbsDiff = abs(actual.sub(e.getValue())).maxNumber().doubleValue();
            assertThat(maxAbsDiff).as("worker %d parameter %s", rank, e.getKey()).isLessThan(tolerance);
        }
    }

    /** @return the L2 distance between two parameter sets' first parameter, to show training moved them */
    static double distance(Map<String, INDArray> a, Map<String, INDArray> b) {
        String name = a.keySet().iterator().next();
        return a.get(name).sub(b.get(name)).norm2Number().doubleValue();
    }

    private static INDArray abs(INDArray x) {
        return org.nd4j.linalg.ops.transforms.Transforms.abs(x, true);
    }
}

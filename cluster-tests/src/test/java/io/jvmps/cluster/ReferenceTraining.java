package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.SyntheticData;
import io.jvmps.worker.model.ModelType;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Single-process training of the softmax model on the synthetic data the workers use with
 * {@code --ps.worker.dataset.format=SYNTHETIC}: each step's gradient is the mean of the W workers' batch
 * gradients for that step, applied either by plain SGD written out here (an independent check of the
 * servers' maths) or by one of the servers' own optimizers (a yardstick for runs whose point is not the
 * optimizer, e.g. a failover with Adam). The reference the cluster runs are compared with.
 */
final class ReferenceTraining {
    static final int FEATURES = 784;
    static final int CLASSES = 10;

    private ReferenceTraining() {
    }

    /** @return the parameters after {@code steps} steps of plain SGD */
    static Map<String, INDArray> sgd(int samples, int workers, int batch, long seed, int steps, double lr) {
        return train(samples, workers, batch, seed, steps, (name, params, avg, step) ->
                params.put(name, params.get(name).sub(avg.mul(lr))));
    }

    /**
     * @param optimizer a server optimizer; each parameter is one slice updated once per step, as on
     *                  servers in SYNC mode
     * @return the parameters after {@code steps} steps
     */
    static Map<String, INDArray> withOptimizer(int samples, int workers, int batch, long seed, int steps,
                                               Optimizer optimizer) {
        Map<String, OptimizerState> states = new HashMap<>();
        return train(samples, workers, batch, seed, steps, (name, params, avg, step) -> {
            INDArray current = params.get(name);
            INDArray flat = current.dup().reshape(current.length());
            OptimizerState state = states.computeIfAbsent(name, n -> optimizer.newState((int) flat.length()));
            optimizer.apply(flat, avg.dup().reshape(flat.length()), state, step);
            params.put(name, flat.reshape(current.shape()));
        });
    }

    private interface Update {
        void apply(String name, Map<String, INDArray> params, INDArray meanGradient, long step);
    }

    private static Map<String, INDArray> train(int samples, int workers, int batch, long seed, int steps,
                                               Update update) {
        LabeledData data = SyntheticData.blobs(samples, FEATURES, CLASSES, 0.1, seed, seed);
        TrainableModel model = ModelType.SOFTMAX.create(FEATURES, CLASSES);
        // one OpenMP thread, as every worker the cluster tests start: nd4j's oneDNN kernels sum in an order
        // that depends on the thread count (about 1e-9 relative), which 80 Adam steps grow to 5e-4 (after
        // the model, which loads the nd4j backend this needs)
        org.nd4j.nativeblas.NativeOpsHolder.getInstance().getDeviceNativeOps().setOmpNumThreads(1);
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
                update.apply(spec.name(), params, sum.get(spec.name()).div(workers), global + 1);
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

package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.TrainableModel;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hybrid placement changes where a parameter lives, not what training computes: SOFTMAX on synthetic
 * data with 2 servers in SYNC mode and 2 workers ends on the same parameters whether every parameter
 * is on the PS or the bias {@code b} is worker-local (averaged by the workers' ring AllReduce over
 * RSocket and updated with the servers' optimizer). The servers run Adam with non-default betas and
 * epsilon behind a warm-up and a cosine decay, so the workers must take every hyper-parameter and the
 * schedule from the servers' description, not only the optimizer's name and learning rate.
 */
class HybridEquivalenceIT {
    private static final int SAMPLES = 512;
    private static final int BATCH = 16;
    private static final int STEPS = 20;
    private static final long SEED = 7;
    private static final List<String> SERVER_OPTIMIZER = List.of("--ps.optimizer.type=ADAM",
            "--ps.optimizer.learning-rate=0.05", "--ps.optimizer.beta1=0.8", "--ps.optimizer.beta2=0.99",
            "--ps.optimizer.epsilon=1e-6", "--ps.optimizer.schedule=COSINE", "--ps.optimizer.warmup-steps=4",
            "--ps.optimizer.total-steps=12", "--ps.optimizer.min-learning-rate=0.005");
    private static final int WORKERS = 2;
    private static final int SERVERS = 2;
    private static final Pattern ALLREDUCE_COST = Pattern.compile(
            "AllReduce of (\\d+) worker-local values \\(\\[b]\\) over 2 workers: (\\d+) steps, ([0-9.]+) ms per step"
                    + " \\(first step ([0-9.]+) ms.*later steps ([0-9.]+) ms");

    @Test
    void aWorkerLocalBiasEndsWhereThePsManagedOneDoes() throws Exception {
        Path allPs = train("hybrid-equivalence-all-ps");
        Path hybrid = train("hybrid-equivalence-hybrid", "--ps.worker.placement=HYBRID", "--ps.worker.local-params=b");

        TrainableModel model = ModelType.SOFTMAX.create(784, 10);
        for (ParamSpec spec : model.params()) {
            INDArray reference = read(allPs, 0, spec.name());
            assertThat(maxAbsDiff(read(allPs, 1, spec.name()), reference)).as("ALL_PS workers agree on %s", spec.name())
                    .isLessThan(1e-6);
            for (int w = 0; w < WORKERS; w++) {
                assertThat(maxAbsDiff(read(hybrid, w, spec.name()), reference))
                        .as("HYBRID worker %d parameter %s vs ALL_PS", w, spec.name()).isLessThan(1e-5);
            }
        }
        // The worker-local bias really trained (it starts at zero): a wrong or missing average would not
        // land on the PS-managed run's bias.
        INDArray initialBias = model.initialParams(SEED).get("b");
        assertThat(maxAbsDiff(read(hybrid, 0, "b"), initialBias)).as("bias moved from its initial value")
                .isGreaterThan(1e-3);
    }

    private static Path train(String name, String... workerArgs) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("params");
            cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                List<String> args = new ArrayList<>(SERVER_OPTIMIZER);
                args.add("--ps.consistency.mode=SYNC");
                cluster.startServer(s, SERVERS, WORKERS, args.toArray(String[]::new));
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                List<String> args = new ArrayList<>(List.of("--ps.worker.model=SOFTMAX",
                        "--ps.worker.dataset.format=SYNTHETIC", "--ps.worker.dataset.train-limit=" + SAMPLES,
                        "--ps.worker.dataset.test-limit=128", "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.epochs=2",
                        "--ps.worker.training.max-steps=" + STEPS, "--ps.worker.training.seed=" + SEED, "--ps.worker.training.log-interval=5",
                        "--ps.worker.output.parameters-dir=" + out));
                args.addAll(List.of(workerArgs));
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, args.toArray(String[]::new));
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
                Matcher cost = ALLREDUCE_COST.matcher(worker.logText());
                if (workerArgs.length > 0) {
                    assertThat(cost.find()).as(worker.name() + " logs its AllReduce cost\n" + worker.tail()).isTrue();
                    assertThat(cost.group(1)).isEqualTo("10");
                    assertThat(cost.group(2)).isEqualTo(String.valueOf(STEPS));
                    assertThat(worker.logText()).as("the local update rule is the servers' own")
                            .contains("updated with the servers' ADAM(lr=0.05, beta1=0.8, beta2=0.99, epsilon=1.0E-6, "
                                    + "schedule=COSINE(total-steps=12, min-learning-rate=0.005) after warm-up 4)");
                    System.out.printf("%s: AllReduce of the 10-value bias: %s ms per step on average, first step %s ms,"
                            + " later steps %s ms%n", worker.name(), cost.group(3), cost.group(4), cost.group(5));
                }
            }
            return out;
        }
    }

    private static INDArray read(Path out, int worker, String param) {
        return Nd4j.createFromNpyFile(out.resolve("worker-" + worker).resolve(param + ".npy").toFile());
    }

    private static double maxAbsDiff(INDArray a, INDArray b) {
        INDArray diff = a.reshape(b.shape()).sub(b);
        return Math.max(Math.abs(diff.maxNumber().doubleValue()), Math.abs(diff.minNumber().doubleValue()));
    }
}

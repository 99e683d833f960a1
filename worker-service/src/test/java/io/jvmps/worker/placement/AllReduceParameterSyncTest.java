package io.jvmps.worker.placement;

import io.jvmps.client.train.HybridUpdateRule;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.client.allreduce.InMemoryRing;
import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.worker.model.Placement;
import io.jvmps.worker.model.SoftmaxRegression;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.client.train.LocalOptimizer;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Worker-local parameters: averaged gradients, the servers' update rule, equal copies everywhere. */
class AllReduceParameterSyncTest {
    private static final double LR = 0.1;

    @Test
    void twoWorkersApplyTheAveragedGradientWithSgdAndStayEqual() throws Exception {
        InMemoryRing ring = new InMemoryRing(2, Duration.ofSeconds(10), 8);
        TrainableModel[] models = new TrainableModel[2];
        INDArray[][] features = new INDArray[2][];
        StepResult[] results = new StepResult[2];
        for (int w = 0; w < 2; w++) {
            models[w] = new SoftmaxRegression(4, 3);
            models[w].place(Placement.workerLocal("b"));
            models[w].setParams(models[w].initialParams(5));
            INDArray x = Nd4j.rand(DataType.FLOAT, 6, 4).addi(w);
            INDArray y = Nd4j.eye(3).castTo(DataType.FLOAT).get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
                    org.nd4j.linalg.indexing.NDArrayIndex.all()).repeat(0, 2);
            results[w] = models[w].gradients(x, y);
        }
        INDArray before = models[0].param("b");
        INDArray expected = before.sub(results[0].gradients().get("b").add(results[1].gradients().get("b"))
                .div(2).mul(LR));

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int rank = w;
                done.add(pool.submit(() -> {
                    try (AllReduceParameterSync sync = new AllReduceParameterSync(models[rank], LocalOptimizer.of(OptimizerType.SGD, LR),
                            new RingAllReduce(ring.link(rank)))) {
                        sync.afterStep(0, results[rank]);
                        assertThat(sync.steps()).isEqualTo(1);
                        assertThat(sync.describe()).contains("3 worker-local values", "[b]", "2 workers");
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        INDArray after0 = models[0].param("b");
        INDArray after1 = models[1].param("b");
        assertThat(after0.equalsWithEps(expected, 1e-6)).as("%s vs expected %s", after0, expected).isTrue();
        assertThat(after0.toFloatVector()).containsExactly(after1.toFloatVector());
        assertThat(after0.equalsWithEps(before, 1e-6)).as("the bias moved").isFalse();
        assertThat(models[0].param("W").equalsWithEps(models[0].initialParams(5).get("W"), 0))
                .as("PS-managed W is untouched by the local sync").isTrue();
    }

    /**
     * The hybrid rule is the servers' optimizer with every hyper-parameter they describe: Adam with
     * non-default betas and epsilon behind a warm-up and a cosine decay moves a local parameter exactly as
     * the servers' implementation moves a slice, update after update.
     */
    @Test
    void theUpdateRuleIsTheServersOptimizerWithItsHyperParametersAndSchedule() {
        OptimizerSettings adam = new OptimizerSettings(0.05, 0.9, false, 0.7, 0.95, 1e-4, 0.1, 0, 0, 1.0,
                new ScheduleSettings(ScheduleType.COSINE, 3, 1, 1.0, 6, 0.005));
        LocalOptimizer local = HybridUpdateRule.forServers(
                new ServerDescription(0, 2, ConsistencyMode.SYNC, 0, 0, 0, "ADAM", adam), 0);
        Optimizer server = OptimizerType.ADAM.create(adam);
        OptimizerState state = server.newState(3);
        INDArray onServer = Nd4j.create(new float[] {0.5f, -1f, 2f});
        INDArray onWorker = onServer.dup();
        java.util.Random random = new java.util.Random(3);
        for (int update = 1; update <= 12; update++) {
            INDArray g = Nd4j.create(new float[] {random.nextFloat() - 0.5f, random.nextFloat(), -random.nextFloat()});
            local.apply("b", onWorker, g);
            server.apply(onServer, g.dup(), state, update);
        }
        assertThat(onWorker.toFloatVector()).containsExactly(onServer.toFloatVector());
        // the defaults (beta1 0.9, beta2 0.999, eps 1e-8, constant rate) would end elsewhere
        LocalOptimizer defaults = LocalOptimizer.of(OptimizerType.ADAM, 0.05);
        INDArray withDefaults = Nd4j.create(new float[] {0.5f, -1f, 2f});
        random = new java.util.Random(3);
        for (int update = 1; update <= 12; update++) {
            defaults.apply("b", withDefaults, Nd4j.create(
                    new float[] {random.nextFloat() - 0.5f, random.nextFloat(), -random.nextFloat()}));
        }
        assertThat(withDefaults.equalsWithEps(onServer, 1e-3)).as("settings matter").isFalse();
        assertThat(local.describe()).isEqualTo(server.describe()).contains("beta1=0.7", "COSINE");
    }

    @Test
    void aScheduleSizedByTheJobIsSizedLocallyByTheSameSteps() {
        // servers with COSINE and no total-steps decay over the job's length; the local rule over this worker's steps
        OptimizerSettings sgd = new OptimizerSettings(0.1, 0.9, false, 0.9, 0.999, 1e-8, 0.1, 0, 0, 1.0,
                new ScheduleSettings(ScheduleType.COSINE, 4, 1, 1.0, 0, 0.0));
        io.jvmps.common.optimizer.schedule.JobLength job = new io.jvmps.common.optimizer.schedule.JobLength();
        job.tell(12);
        Optimizer server = OptimizerType.SGD.create(sgd.withSchedule(new ScheduleSettings(ScheduleType.COSINE, 4, 1,
                1.0, 0, 0.0, job)));
        LocalOptimizer local = HybridUpdateRule.forServers(
                new ServerDescription(0, 2, ConsistencyMode.SYNC, 0, 0, 0, "SGD", sgd), 12);
        INDArray onServer = Nd4j.create(new float[] {1f, 2f});
        INDArray onWorker = onServer.dup();
        for (int update = 1; update <= 14; update++) {
            INDArray g = Nd4j.create(new float[] {update, -update});
            local.apply("b", onWorker, g);
            server.apply(onServer, g.dup(), server.newState(2), update);
        }
        assertThat(onWorker.toFloatVector()).containsExactly(onServer.toFloatVector());
        assertThat(local.describe()).contains("the job's 12 updates");
    }

    @Test
    void everyServerOptimizerCanRunLocallyAndAnUnknownOneIsRefused() {
        for (OptimizerType type : OptimizerType.values()) {
            if (type.rowsOnly()) {
                continue; // never the servers' ps.optimizer.type
            }
            assertThat(HybridUpdateRule.forServers(describe(type.name()), 0).describe()).startsWith(type.name());
        }
        assertThatThrownBy(() -> HybridUpdateRule.forServers(describe("LAMB"), 0)).isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("LAMB").hasMessageContaining("FTRL");
    }

    @Test
    void withoutLocalParametersThereIsNothingToSync() {
        TrainableModel model = new SoftmaxRegression(4, 3);
        LocalSyncFactory factory = new LocalSyncFactory();
        assertThat(factory.create(model, describe("SGD"), null, 2, 10)).isSameAs(LocalParameterSync.NONE);
    }

    @Test
    void geoModeIsRefusedForHybridPlacement() {
        TrainableModel model = new SoftmaxRegression(4, 3);
        model.place(Placement.workerLocal("b"));
        LocalSyncFactory factory = new LocalSyncFactory();
        ServerDescription geo = new ServerDescription(0, 2, ConsistencyMode.GEO, 0, 4, 0.1, "SGD",
                OptimizerSettings.defaults(LR));
        assertThatThrownBy(() -> factory.create(model, geo, null, 2, 10)).isInstanceOf(PsException.class)
                .hasMessageContaining("GEO");
    }

    private static ServerDescription describe(String optimizer) {
        return new ServerDescription(0, 2, ConsistencyMode.SYNC, 0, 0, 0, optimizer, OptimizerSettings.defaults(LR));
    }
}

package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RecoverAnswer;
import io.jvmps.common.protocol.RecoverRequest;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.AsyncPolicy;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.GeoPolicy;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PolicyContext;
import io.jvmps.server.consistency.SyncPolicy;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.server.store.MemoryBudget;
import io.jvmps.server.sparse.SparseTable;
import io.jvmps.server.sparse.SparseTables;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecoveryTest {
    private static final List<ParamSpec> MODEL = List.of(new ParamSpec("W", new long[] {40, 50}),
            new ParamSpec("b", new long[] {50}));

    @TempDir
    Path dir;

    @Test
    void aNewServerSetRollsBackOnceFailsWaitingPullsAndRepeatsChangeNothing() throws Exception {
        DenseStore store = new DenseStore();
        DeclaredModel model = new DeclaredModel(1);
        ShardMap map = model.declare(MODEL);
        Map<Long, INDArray> init = new HashMap<>();
        for (Slice s : map.slices()) {
            init.put(s.key(), Nd4j.rand(DataType.FLOAT, s.length()));
        }
        store.initialize(init);
        Optimizer adam = OptimizerType.ADAM.create(new OptimizerSettings(0.01, 0, false, 0.9, 0.999, 1e-8));
        ServerIdentity identity = ServerIdentity.standalone(0);
        Checkpointer checkpointer = new Checkpointer(new CheckpointStore(dir, Clock.systemUTC()),
                new Checkpointer.Schedule(2, Duration.ZERO, 3), store, model, identity, adam, "ADAM",
                Clock.systemUTC());
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, adam, 1, Duration.ofSeconds(30), 0, checkpointer));
        SparseTables sparse = new SparseTables(OptimizerType.ADAM,
                type -> type.create(new OptimizerSettings(0.01, 0, false, 0.9, 0.999, 1e-8)), new MemoryBudget(1L << 26));
        SparseTable table = sparse.declare(new SparseTableSpec("emb", 3, 1, 0.1f, null));
        checkpointer.recordSparse(sparse);
        Recovery recovery = new Recovery(checkpointer, store, model, policy, identity, -1, null, sparse);
        recovery.declared("server-a");

        float[] atStep4 = null;
        float[] rowsAtStep4 = null;
        long[] ids = {0, 1, 2, 3, 4, 100};
        for (int step = 0; step < 5; step++) {
            // a worker pushes its rows' gradients, then the dense ones, for each step
            table.push(new long[] {step, 100}, new float[] {1, 2, 3, -1, -2, -3}, UpdateKind.GRADIENT);
            push(policy, store, map, step);
            if (step == 3) {
                atStep4 = values(store, map.slices().get(0));
                rowsAtStep4 = pull(table, ids);
            }
        }
        DenseSlice first = store.get(map.slices().get(0).key());
        CompletableFuture<Void> waitingPull = first.awaitVersion(6).toFuture();

        RecoverAnswer asked = recovery.handle(new RecoverRequest("server-a2", -1));
        assertThat(asked.latestStep()).isEqualTo(4);
        assertThat(asked.step()).as("not rolled back for this server set yet").isEqualTo(-1);
        RecoverAnswer rolled = recovery.handle(new RecoverRequest("server-a2", 4));
        assertThat(rolled.rolledBack()).isTrue();
        assertThat(recovery.handle(new RecoverRequest("server-a2", -1)).step())
                .as("a question after the rollback names it").isEqualTo(4);
        assertThat(recovery.handle(new RecoverRequest("server-a3", -1)).step()).isEqualTo(-1);
        assertThat(first.version()).isEqualTo(4);
        assertThat(values(store, map.slices().get(0))).containsExactly(atStep4);
        assertThat(pull(table, ids)).as("the table's rows at checkpoint 4, Adam state included")
                .containsExactly(rowsAtStep4);
        assertThat(table.rows()).as("row 4 was created after the checkpoint").isEqualTo(5);
        assertThatThrownBy(waitingPull::get).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.ROLLED_BACK));

        push(policy, store, map, 4); // training resumed by the first recovered worker
        RecoverAnswer repeat = recovery.handle(new RecoverRequest("server-a2", 4)); // a second worker
        assertThat(repeat.rolledBack()).isFalse();
        assertThat(first.version()).as("a repeat does not undo the resumed step").isEqualTo(5);
        checkpointer.close();
    }

    @Test
    void anAsyncRollbackPutsEachWorkersClockBackToTheCheckpointNotToItsUpdateCount() throws Exception {
        Clocked<AsyncPolicy> rig = clocked(AsyncPolicy::new);
        DenseStore store = rig.zero().store();
        ShardMap map = rig.zero().map();
        Checkpointer checkpointer = rig.checkpointer();
        AsyncPolicy policy = rig.policy();
        Recovery recovery = rig.recovery();

        int[][] pushes = {{0, 0}, {0, 1}, {1, 0}, {0, 2}, {1, 1}, {1, 2}, {0, 3}}; // (worker, step); 4th: checkpoint 4
        for (int[] p : pushes) {
            push(policy, store, map, p[0], p[1]);
        }
        assertThat(policy.workerClocks()).containsExactly(4L, 3L);

        assertThat(recovery.handle(new RecoverRequest("server-b", 4)).rolledBack()).isTrue();

        assertThat(policy.workerClocks()).as("worker 0 had pushed steps 0-2 by update 4, worker 1 step 0")
                .containsExactly(3L, 1L);
        assertThatThrownBy(() -> push(policy, store, map, 1, 5)).as("a worker that has not recovered from the "
                + "rollback would skip the pushes it undid").hasMessageContaining("ROLLED_BACK");
        join(policy, 0, 3);
        join(policy, 1, 1);
        push(policy, store, map, 1, 1);
        push(policy, store, map, 0, 3);
        assertThat(store.require(map.slices().get(0).key()).version()).isEqualTo(6);
        checkpointer.close();
    }

    @Test
    void geoDeltasAreCheckpointedWhileTrainingAndARollbackRestoresTheirSumAndTheRoundClocks() throws Exception {
        Clocked<GeoPolicy> rig = clocked(GeoPolicy::new);
        DenseStore store = rig.zero().store();
        ShardMap map = rig.zero().map();
        Checkpointer checkpointer = rig.checkpointer();
        GeoPolicy policy = rig.policy();
        Recovery recovery = rig.recovery();

        int[][] rounds = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}}; // (worker, round); the 4th push: checkpoint 4
        for (int[] r : rounds) {
            push(policy, store, map, r[0], r[1]);
        }
        checkpointer.drain();
        assertThat(checkpointer.files().stepsNewestFirst()).as("written while training, not at shutdown")
                .containsExactly(4L);
        Slice first = map.slices().get(0);
        // deltas added as they are (no learning rate): 0.1 * (round + 1) per push, rounds 0, 0, 1, 1
        assertThat(checkpointer.files().load(4).parts().get(0).slices()).hasSize(map.slices().size())
                .allSatisfy(c -> assertThat(c.values()[0]).isCloseTo(0.6f, org.assertj.core.data.Offset.offset(1e-6f)));

        assertThat(recovery.handle(new RecoverRequest("server-b", 4)).rolledBack()).isTrue();

        assertThat(values(store, first)[0]).isCloseTo(0.6f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(policy.workerClocks()).as("both workers had pushed rounds 0 and 1 by push 4").containsExactly(2L, 2L);
        join(policy, 0, 2);
        push(policy, store, map, 0, 2);
        assertThat(store.require(first.key()).version()).isEqualTo(5);
        checkpointer.close();
    }

    @Test
    void withoutCheckpointsARollbackIsRefusedByName() {
        DenseStore store = new DenseStore();
        DeclaredModel model = new DeclaredModel(1);
        Optimizer sgd = OptimizerType.SGD.create(new OptimizerSettings(0.1, 0, false, 0.9, 0.999, 1e-8));
        Recovery recovery = new Recovery(null, store, model, new SyncPolicy(new PolicyContext(store, sgd, 1,
                Duration.ofSeconds(1))), ServerIdentity.standalone(0), -1);
        assertThat(recovery.handle(new RecoverRequest("x", -1)).latestStep()).isEqualTo(-1);
        assertThatThrownBy(() -> recovery.handle(new RecoverRequest("x", 0)))
                .hasMessageContaining("ps.checkpoint.dir is unset");
    }

    /**
     * A one-server model at zeros with SGD, a checkpointer every 4 updates into {@link #dir}, a clocked policy of
     * 2 workers telling it, and the server's recovery, declared for server set "server-a".
     */
    private record Clocked<P extends ConsistencyPolicy>(ZeroModel zero, Checkpointer checkpointer, P policy,
                                                        Recovery recovery) {
    }

    private <P extends ConsistencyPolicy> Clocked<P> clocked(java.util.function.Function<PolicyContext, P> make) {
        ZeroModel zero = ZeroModel.of(MODEL);
        Optimizer sgd = OptimizerType.SGD.create(new OptimizerSettings(0.1, 0, false, 0.9, 0.999, 1e-8));
        ServerIdentity identity = ServerIdentity.standalone(0);
        Checkpointer checkpointer = new Checkpointer(new CheckpointStore(dir, Clock.systemUTC()),
                new Checkpointer.Schedule(4, Duration.ZERO, 3), zero.store(), zero.model(), identity, sgd, "SGD",
                Clock.systemUTC());
        P policy = make.apply(new PolicyContext(zero.store(), sgd, 2, Duration.ofSeconds(30), 0, checkpointer));
        checkpointer.recordClocks(policy::workerClocks);
        Recovery recovery = new Recovery(checkpointer, zero.store(), zero.model(), policy, identity, -1, null, null);
        recovery.declared("server-a");
        return new Clocked<>(zero, checkpointer, policy, recovery);
    }

    private static void join(ConsistencyPolicy policy, int worker, long step) {
        assertThat(policy.join(new io.jvmps.common.protocol.JoinRequest(worker, "w" + worker, step), 0).accepted())
                .as("worker " + worker + " joins again at " + step).isTrue();
    }

    private static void push(ConsistencyPolicy policy, DenseStore store, ShardMap map, int step) {
        push(policy, store, map, 0, step);
    }

    private static void push(ConsistencyPolicy policy, DenseStore store, ShardMap map, int worker, int step) {
        List<GradientPush.SliceGradient> gradients = map.slices().stream()
                .map(s -> new GradientPush.SliceGradient(store.require(s.key()),
                        Nd4j.valueArrayOf(new long[] {s.length()}, 0.1 * (step + 1), DataType.FLOAT)))
                .toList();
        policy.accept(new GradientPush(worker, step, gradients));
    }

    private static float[] pull(SparseTable table, long[] ids) {
        float[] out = new float[ids.length * table.spec().dim()];
        table.pull(ids, out);
        return out;
    }

    private static float[] values(DenseStore store, Slice slice) {
        DenseSlice s = store.require(slice.key());
        s.lock();
        try {
            return s.values().toFloatVector();
        } finally {
            s.unlock();
        }
    }
}

package io.jvmps.server.checkpoint;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PolicyContext;
import io.jvmps.server.consistency.SyncPolicy;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A dense model of one element (a global bias) on two servers: server 1 holds no slice and sees no step, so server 0,
 * the only slice holder, writes server 1's empty part beside its own and every checkpoint is complete. With sparse
 * tables such a job is refused instead, since server 1's rows would have no part.
 */
class SliceLessPartsTest {
    private static final List<ParamSpec> BIAS = List.of(new ParamSpec("bias", new long[] {1}));

    @TempDir
    Path dir;

    @Test
    void theOnlySliceHolderWritesTheEmptyPartOfTheServerWithoutASlice() throws Exception {
        DeclaredModel model = new DeclaredModel(2);
        ShardMap map = model.declare(BIAS);
        assertThat(map.slicesOf(1)).as("a 1-element model leaves server 1 without a slice").isEmpty();
        Slice only = map.slicesOf(0).get(0);
        DenseStore store = new DenseStore();
        store.initialize(Map.of(only.key(), Nd4j.zeros(DataType.FLOAT, 1)));
        Optimizer sgd = OptimizerType.SGD.create(OptimizerSettings.defaults(0.5));
        Checkpointer checkpointer = new Checkpointer(new CheckpointStore(dir, Clock.systemUTC()),
                new Checkpointer.Schedule(2, Duration.ZERO, 3), store, model, ServerIdentity.standalone(0), sgd, "SGD",
                Clock.systemUTC());
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, sgd, 1, Duration.ofSeconds(30), 0, checkpointer));
        for (int step = 0; step < 2; step++) {
            policy.accept(new GradientPush(0, step, List.of(new GradientPush.SliceGradient(store.require(only.key()),
                    Nd4j.valueArrayOf(new long[] {1}, 1f, DataType.FLOAT)))));
        }
        checkpointer.drain();
        Checkpoint complete = checkpointer.files().latestComplete().orElseThrow();
        assertThat(complete.step()).isEqualTo(2);
        assertThat(complete.parts()).hasSize(2);
        assertThat(complete.parts().get(1).slices()).isEmpty();
        assertThat(complete.parts().get(0).slices().get(0).values()).containsExactly(-1f);
        checkpointer.close();
    }

    @Test
    void tablesOnAServerWithoutASliceAreRefusedWhenCheckpointsAreOn() {
        ShardMap map = ShardMap.compute(BIAS, 2);
        SliceLessCheck on = new SliceLessCheck(true);
        assertThatThrownBy(() -> on.require(map, 1, true)).isInstanceOf(PsException.class)
                .hasMessageContaining("the job's dense model has 1 element(s) for 2 servers, so server 1 holds no slice")
                .hasMessageContaining("at least 2 elements");
        on.require(map, 0, true);           // server 0 holds the slice
        on.require(map, 1, false);          // no tables: the empty part is written for it
        new SliceLessCheck(false).require(map, 1, true); // no checkpoints: nothing to complete
    }
}

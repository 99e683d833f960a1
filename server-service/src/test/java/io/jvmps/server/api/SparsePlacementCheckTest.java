package io.jvmps.server.api;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.common.sparse.SparseCodec;
import io.jvmps.common.sparse.SparsePull;
import io.jvmps.common.sparse.SparsePush;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.MemoryBudget;
import io.jvmps.server.sparse.SparseTables;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A server refuses ids that the placement gives to another server, so no row ever lives in two places. */
class SparsePlacementCheckTest {
    private final NettyDataBufferFactory factory = new NettyDataBufferFactory(ByteBufAllocator.DEFAULT);
    private final SparseTables tables = new SparseTables(OptimizerType.SGD,
            type -> type.create(new OptimizerSettings(0.1, 0, false, 0.9, 0.999, 1e-8)), new MemoryBudget(1 << 20));
    private final SparseController rank1Of2 = new SparseController(tables, new Frames(factory, 1 << 20),
            ServerIdentity.standalone(1), new ClusterProperties(2, 1), new ServerMetrics(new SimpleMeterRegistry()),
            new io.jvmps.server.consistency.LiveWorkers(1), new io.jvmps.server.checkpoint.LostState(
                    ServerIdentity.standalone(1), new io.jvmps.server.checkpoint.CheckpointRestorer(null, null,
                    new io.jvmps.server.store.DenseStore(), null)), new io.jvmps.server.checkpoint.SliceLessCheck(false),
            new io.jvmps.server.store.DeclaredModel(2));

    @Test
    void idsOfAnotherServerAreRefusedAndOwnIdsAreServed() {
        tables.declare(new SparseTableSpec("t", 2, 1, 0.1f, null));
        long own = LongStream.range(0, 100).filter(id -> RowPlacement.serverOf(id, 2) == 1).findFirst().orElseThrow();
        long foreign = LongStream.range(0, 100).filter(id -> RowPlacement.serverOf(id, 2) == 0).findFirst().orElseThrow();

        assertThatThrownBy(() -> rank1Of2.push(factory.wrap(SparseCodec.encodePush(ByteBufAllocator.DEFAULT,
                new SparsePush("t", 0, 1, UpdateKind.GRADIENT, 2, new long[] {own, foreign}, new float[4])))).block())
                .hasMessageContaining("[INVALID_ARGUMENT]")
                .hasMessageContaining("id " + foreign + " belongs to server 0 of 2, not to server 1");
        assertThat(tables.require("t").rows()).isZero();

        var rows = rank1Of2.pull(factory.wrap(SparseCodec.encodePull(ByteBufAllocator.DEFAULT,
                new SparsePull("t", 0, new long[] {own})))).block();
        assertThat(rows.readableByteCount()).isEqualTo(8 + 8 + 2 * 4);
        DataBufferUtils.release(rows);
    }
}

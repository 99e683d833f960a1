package io.jvmps.server.api;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.MemoryBudget;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A receiver frees the native memory of a stream that did not complete, and only of such a stream. */
class TensorReceiverTest {
    private final MemoryBudget budget = new MemoryBudget(1 << 20);

    private TensorReceiver receiver() {
        return new TensorReceiver(1 << 20, first -> (int) first.totalElements(), budget, ReceiveBuffers.FRESH);
    }

    private static TensorChunk chunk(long key, long total, int count) {
        return new TensorChunk(DType.FLOAT32, key, 3, 0, 0, new long[] {total}, 0, count,
                Unpooled.buffer(4 * count).writeZero(4 * count));
    }

    @Test
    void aStreamDiscardedMidwayFreesItsWholeAndItsHalfReceivedTensorsAtOnce() {
        TensorReceiver receiver = receiver();
        receiver.accept(chunk(SliceKey.of(1, 0), 4, 4));
        receiver.accept(chunk(SliceKey.of(1, 1), 1024, 256));
        assertThat(receiver.openTensors()).isEqualTo(2);
        assertThat(budget.used()).isEqualTo(4 * (4 + 1024));

        receiver.discard();
        receiver.releaseReservations();
        assertThat(receiver.openTensors()).as("freed without a GC").isZero();
        assertThat(budget.used()).isZero();
        TensorChunk late = chunk(SliceKey.of(1, 1), 1024, 256); // a frame racing the stall: released unread
        receiver.accept(late);
        assertThat(late.refCnt()).isZero();
        assertThat(receiver.openTensors()).isZero();
    }

    @Test
    void tensorsHandedOverAreNotFreedByALaterDiscard() {
        TensorReceiver receiver = receiver();
        receiver.accept(chunk(SliceKey.of(2, 0), 4, 4));
        List<ReceivedTensor> tensors = receiver.finish();
        receiver.discard();
        assertThat(tensors).singleElement().satisfies(t -> assertThat(t.values().wasClosed()).isFalse());
        assertThat(receiver.openTensors()).isEqualTo(1);
    }
}

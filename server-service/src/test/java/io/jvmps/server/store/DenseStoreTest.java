package io.jvmps.server.store;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Slice creation rules, snapshots, and version waiters of the store. */
class DenseStoreTest {
    private static final long K = SliceKey.of(1, 2);

    @Test
    void firstInitWinsAndOtherLengthsAreRejectedWhole() {
        DenseStore store = new DenseStore();
        assertThat(store.initialize(Map.of(K, Nd4j.createFromArray(1f, 2f)))).isEqualTo(1);
        assertThat(store.initialize(Map.of(K, Nd4j.createFromArray(9f, 9f)))).isZero();
        long other = SliceKey.of(5, 0);
        assertThatThrownBy(() -> store.initialize(Map.of(other, Nd4j.createFromArray(1f), K, Nd4j.createFromArray(1f))))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SHAPE_MISMATCH))
                .hasMessageContaining("p1/s2 already holds 2 elements; init carries 1");
        assertThat(store.get(other)).isNull();
        assertThat(snapshotFloats(store.require(K))).containsExactly(1f, 2f);
    }

    @Test
    void unknownKeyIsNamed() {
        assertThatThrownBy(() -> new DenseStore().require(K))
                .hasMessageStartingWith("[UNKNOWN_KEY] slice p1/s2");
    }

    @Test
    void arrayMemoryTakesBytesWrittenThroughItsNioView() {
        // the receive path copies chunk bytes straight into this view: it must start at 0 and hold 4n bytes
        INDArray array = Nd4j.createUninitialized(DataType.FLOAT, 3);
        ByteBuffer view = array.data().asNio();
        assertThat(view.position()).isZero();
        assertThat(view.remaining()).isGreaterThanOrEqualTo(12);
        view.duplicate().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(new float[] {1.5f, -2f, 3.25f});
        assertThat(array.toFloatVector()).containsExactly(1.5f, -2f, 3.25f);
    }

    @Test
    void waitersWakeWhenTheVersionIsReachedAndNotBefore() {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(K, Nd4j.createFromArray(1f)));
        DenseSlice slice = store.require(K);
        CompletableFuture<Void> two = slice.awaitVersion(2).toFuture();
        advance(slice);
        assertThat(two).isNotDone();
        advance(slice);
        assertThat(two).isCompleted();
        assertThat(slice.awaitVersion(1).toFuture()).isCompleted();
    }

    @Test
    void aPullRegistersWhileAPushHoldsTheLockAndWakesOnItsUnlock() throws Exception {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(K, Nd4j.createFromArray(1f)));
        DenseSlice slice = store.require(K);
        slice.lock(); // a push applying this slice
        try {
            CompletableFuture<CompletableFuture<Void>> registered = CompletableFuture.supplyAsync(
                    () -> slice.awaitVersion(1).toFuture());
            CompletableFuture<Void> pull = registered.get(5, java.util.concurrent.TimeUnit.SECONDS); // did not block
            assertThat(slice.waitingPulls()).isEqualTo(1);
            slice.advanceVersion();
            assertThat(pull).as("woken only once the lock is released").isNotDone();
        } finally {
            slice.unlock();
        }
        assertThat(slice.waitingPulls()).isZero();
    }

    @Test
    void noWaiterIsLostWhileVersionsAdvanceConcurrently() throws Exception {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(K, Nd4j.createFromArray(1f)));
        DenseSlice slice = store.require(K);
        int versions = 2_000;
        java.util.List<CompletableFuture<Void>> pulls = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Thread pusher = new Thread(() -> {
            for (int v = 0; v < versions; v++) {
                advance(slice);
            }
        });
        Thread puller = new Thread(() -> {
            for (int v = 1; v <= versions; v++) {
                pulls.add(slice.awaitVersion(v).toFuture());
            }
        });
        pusher.start();
        puller.start();
        pusher.join(20_000);
        puller.join(20_000);

        CompletableFuture.allOf(pulls.toArray(CompletableFuture[]::new)).get(5, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(pulls).hasSize(versions);
        assertThat(slice.waitingPulls()).isZero();
    }

    private static void advance(DenseSlice slice) {
        slice.lock();
        try {
            slice.advanceVersion();
        } finally {
            slice.unlock();
        }
    }

    private static float[] snapshotFloats(DenseSlice slice) {
        SliceSnapshot snap = slice.snapshot(ByteBufAllocator.DEFAULT);
        try {
            float[] out = new float[snap.length()];
            snap.data().nioBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
            return out;
        } finally {
            snap.release();
        }
    }

    @Test
    void aSliceKeepsOneSpareGradientBufferForTheNextPush() {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(K, Nd4j.createFromArray(1f, 2f, 3f)));
        DenseSlice slice = store.require(K);
        INDArray first = slice.takeGradientBuffer();
        INDArray second = slice.takeGradientBuffer();
        assertThat(first.length()).isEqualTo(3);
        assertThat(second).isNotSameAs(first); // nothing kept yet: two new buffers

        slice.recycle(first);
        slice.recycle(second); // one spare at most: this one is left to the garbage collector
        slice.recycle(Nd4j.create(DataType.FLOAT, 4)); // another length is never kept
        assertThat(slice.takeGradientBuffer()).isSameAs(first);
        INDArray fresh = slice.takeGradientBuffer();
        assertThat(fresh).isNotSameAs(first).isNotSameAs(second);

        INDArray closed = Nd4j.create(DataType.FLOAT, 3);
        closed.close();
        slice.recycle(closed); // a freed buffer is never handed out again
        assertThat(slice.takeGradientBuffer()).isNotSameAs(closed);
    }
}

package io.jvmps.server.store;

import io.jvmps.common.sharding.SliceKey;
import io.jvmps.optimizer.OptimizerState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.nd4j.linalg.api.ndarray.INDArray;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;

/**
 * One dense parameter slice: a 1-D float32 vector, its version (number of updates applied) and its
 * optimizer state. Thread-safe: every access to values, version changes and optimizer state happens
 * under the slice's own lock ({@link #lock()} / {@link #unlock()}). Waiters for a version are woken
 * after the lock is released, never while it is held (see {@link #unlock(Collection)}).
 */
public final class DenseSlice {
    private final long key;
    private final int length;
    private final INDArray values;
    private final ReentrantLock lock = new ReentrantLock();
    private final java.util.Queue<Waiter> waiters = new java.util.concurrent.ConcurrentLinkedQueue<>(); // lock-free: see awaitVersion
    private volatile long version;
    private OptimizerState optimizerState;
    private final GradientBuffers gradientBuffers;

    private record Waiter(long minVersion, CompletableFuture<Void> done) {
    }

    DenseSlice(long key, INDArray values, GradientBuffers gradientBuffers) {
        this(key, values, null, 0, gradientBuffers);
    }

    DenseSlice(long key, INDArray values, OptimizerState state, long version, GradientBuffers gradientBuffers) {
        this.gradientBuffers = gradientBuffers;
        this.key = key;
        this.values = values;
        this.length = (int) values.length();
        this.optimizerState = state;
        this.version = version;
    }

    /** @return the slice key */
    public long key() {
        return key;
    }

    /** @return number of float32 elements */
    public int length() {
        return length;
    }

    /** @return number of updates applied so far; a fresh slice is at 0. Readable without the lock. */
    public long version() {
        return version;
    }

    /** @return pulls waiting for a version of this slice not reached yet (a cancelled pull leaves at once) */
    public int waitingPulls() {
        return waiters.size();
    }

    /** Takes the slice's lock (reentrant). */
    public void lock() {
        lock.lock();
    }

    /** Releases the lock and, once fully released, wakes waiters whose version was reached. */
    public void unlock() {
        List<CompletableFuture<Void>> wake = new ArrayList<>(0);
        unlock(wake);
        wake.forEach(f -> f.complete(null));
    }

    /**
     * Releases the lock and, once fully released, hands the waiters whose version was reached to
     * {@code wake} instead of waking them: a caller holding several slice locks wakes them only after
     * releasing all, so no woken pull runs while this thread still holds a lock.
     *
     * @param wake collects the waiters to complete
     */
    public void unlock(Collection<CompletableFuture<Void>> wake) {
        if (lock.getHoldCount() == 1) {
            drainReady(wake);
        }
        lock.unlock();
    }

    /** @return the values; the caller must hold the lock */
    public INDArray values() {
        checkLocked();
        return values;
    }

    /**
     * @param factory creates the state on first use, given the slice length
     * @return the optimizer state; the caller must hold the lock
     */
    public OptimizerState optimizerState(IntFunction<OptimizerState> factory) {
        checkLocked();
        if (optimizerState == null) {
            optimizerState = factory.apply(length);
        }
        return optimizerState;
    }

    /**
     * A buffer for receiving one gradient of this slice, from the slice's {@link GradientBuffers} (its contents
     * are stale: the receiver overwrites every element). Thread-safe, lock-free for the caller.
     *
     * @return a float32 array of {@link #length()} elements, owned by the caller
     */
    public INDArray takeGradientBuffer() {
        return gradientBuffers.take(length);
    }

    /**
     * Gives a gradient buffer whose update was applied back for a later {@link #takeGradientBuffer()} (kept or
     * freed, as the slice's {@link GradientBuffers} decides). The caller must not use {@code gradient} afterwards.
     * Thread-safe.
     *
     * @param gradient a float32 array of {@link #length()} elements that nothing else references
     */
    public void recycle(INDArray gradient) {
        if (gradient.length() != length || gradient.wasClosed()) {
            return;
        }
        gradientBuffers.give(gradient);
    }

    /** Counts one applied update. The caller must hold the lock; waiters wake on {@link #unlock()}. */
    public void advanceVersion() {
        checkLocked();
        version++;
    }

    /**
     * @param minVersion the version to wait for
     * @return completes once the slice's version is at least {@code minVersion}; cancelling it
     *         forgets the waiter
     */
    public Mono<Void> awaitVersion(long minVersion) {
        if (version >= minVersion) {
            return Mono.empty();
        }
        return Mono.defer(() -> {
            // registered without the lock, so a pull never blocks its event loop behind a push applying this
            // slice: the waiter is queued first and the version read after, and a push raises the version
            // before it scans the queue (both volatile), so one of the two always sees the other
            Waiter waiter = new Waiter(minVersion, new CompletableFuture<>());
            waiters.add(waiter);
            if (version >= minVersion && waiters.remove(waiter)) {
                waiter.done().complete(null);
            }
            return Mono.fromFuture(waiter.done(), true).doOnCancel(() -> forget(waiter));
        });
    }

    /**
     * Copies the values out under the lock: a consistent snapshot at one version.
     *
     * @param alloc allocator of the copy
     * @return the snapshot; its owner releases it
     */
    public SliceSnapshot snapshot(ByteBufAllocator alloc) {
        ByteBuf copy = alloc.directBuffer(length * 4);
        lock();
        try {
            copy.writeBytes(values.data().asNio().duplicate().clear().limit(length * 4));
            return new SliceSnapshot(key, version, length, copy);
        } catch (RuntimeException e) {
            copy.release();
            throw e;
        } finally {
            unlock();
        }
    }

    /**
     * Puts the slice back to a checkpoint: values, optimizer state and version. The caller holds the
     * lock; every pending version waiter is moved to {@code failed} for the caller to fail after
     * unlocking (their versions may never come in the same form).
     *
     * @param restored values, {@link #length()} floats
     * @param state    the optimizer state to use from now on
     * @param version  the checkpoint's step
     * @param failed   collects the waiters
     */
    public void resetTo(float[] restored, OptimizerState state, long version,
                        Collection<CompletableFuture<Void>> failed) {
        checkLocked();
        if (restored.length != length) {
            throw new IllegalArgumentException("slice " + SliceKey.describe(key) + " holds " + length
                    + " elements; the checkpoint has " + restored.length);
        }
        values.assign(org.nd4j.linalg.factory.Nd4j.createFromArray(restored));
        this.optimizerState = state;
        this.version = version;
        waiters.forEach(w -> failed.add(w.done()));
        waiters.clear();
    }

    @Override
    public String toString() {
        return "DenseSlice[" + SliceKey.describe(key) + ", length=" + length + ", version=" + version + "]";
    }

    private void forget(Waiter waiter) {
        waiters.remove(waiter);
    }

    private void drainReady(Collection<CompletableFuture<Void>> wake) {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (version >= w.minVersion() && waiters.remove(w)) { // false: the pull took itself out
                wake.add(w.done());
            }
        }
    }

    private void checkLocked() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("slice " + SliceKey.describe(key) + " accessed without its lock");
        }
    }
}

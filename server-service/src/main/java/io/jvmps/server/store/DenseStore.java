package io.jvmps.server.store;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.optimizer.OptimizerState;
import org.nd4j.linalg.api.ndarray.INDArray;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dense slices this server holds, by slice key. Thread-safe. A slice is created by the first
 * {@link #initialize(Map)} that names it; later inits with the same length are ignored, with another
 * length they fail. Pulls may wait for a slice that is not initialised yet ({@link #await(long)}).
 *
 * <p>Keys are few (one per slice of a few MiB), so a boxed concurrent map is fine here.
 */
public final class DenseStore {
    private final ConcurrentHashMap<Long, CompletableFuture<DenseSlice>> slots = new ConcurrentHashMap<>();
    private final Object initLock = new Object();
    private final java.util.function.Supplier<GradientBuffers> gradientBuffers;
    private final long maxBytes;

    /** A store whose slices each keep their own spare gradient buffer (whole-push application), without a cap. */
    public DenseStore() {
        this(SpareGradientBuffer::new);
    }

    /** @param gradientBuffers gives each new slice where its pushes are received into (one per slice or shared) */
    public DenseStore(java.util.function.Supplier<GradientBuffers> gradientBuffers) {
        this(gradientBuffers, Long.MAX_VALUE);
    }

    /**
     * @param gradientBuffers gives each new slice where its pushes are received into (one per slice or shared)
     * @param maxBytes        cap on the bytes of the slices' values ({@code ps.server.max-dense-bytes}), &gt; 0
     */
    public DenseStore(java.util.function.Supplier<GradientBuffers> gradientBuffers, long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("ps.server.max-dense-bytes must be > 0, got " + maxBytes);
        }
        this.gradientBuffers = gradientBuffers;
        this.maxBytes = maxBytes;
    }

    /**
     * Admits {@code bytes} more of slice values, checked before they are allocated.
     *
     * @param what what needs them, for the message (e.g. "slice p3/s0")
     * @throws PsException {@link ErrorCode#RESOURCE_EXHAUSTED} naming the cap when they would pass it
     */
    public void requireRoom(long bytes, String what) {
        long held = 4L * slices().stream().mapToLong(DenseSlice::length).sum();
        if (held + bytes > maxBytes) {
            throw new PsException(ErrorCode.RESOURCE_EXHAUSTED, what + " needs " + bytes + " bytes but the dense "
                    + "slices here hold " + held + " of ps.server.max-dense-bytes=" + maxBytes);
        }
    }

    /**
     * Creates every absent slice with the given values (taking ownership of the arrays); all-or-nothing.
     *
     * @param values initial values by key, 1-D float32 arrays
     * @return number of slices created (the others already existed)
     * @throws PsException {@link ErrorCode#SHAPE_MISMATCH} if an existing slice has another length
     */
    public int initialize(Map<Long, INDArray> values) {
        synchronized (initLock) {
            Map<Long, INDArray> fresh = new HashMap<>();
            for (Map.Entry<Long, INDArray> e : values.entrySet()) {
                DenseSlice existing = get(e.getKey());
                long length = e.getValue().length();
                if (existing == null) {
                    fresh.put(e.getKey(), e.getValue());
                } else if (existing.length() != length) {
                    throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(e.getKey())
                            + " already holds " + existing.length() + " elements; init carries " + length);
                }
            }
            fresh.forEach((key, array) -> slot(key).complete(new DenseSlice(key, array, gradientBuffers.get())));
            return fresh.size();
        }
    }

    /**
     * Creates a slice from restored values, optimizer state and version (a checkpoint), unless it
     * already exists.
     *
     * @return true when it was created, false when the slice existed (it is left unchanged)
     * @throws PsException {@link ErrorCode#SHAPE_MISMATCH} if an existing slice has another length
     */
    public boolean restore(long key, INDArray values, OptimizerState state, long version) {
        synchronized (initLock) {
            DenseSlice existing = get(key);
            if (existing != null) {
                if (existing.length() != values.length()) {
                    throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(key) + " already holds "
                            + existing.length() + " elements; the checkpoint has " + values.length());
                }
                return false;
            }
            slot(key).complete(new DenseSlice(key, values, state, version, gradientBuffers.get()));
            return true;
        }
    }

    /** @return the slice, or null when it was never initialised */
    public DenseSlice get(long key) {
        CompletableFuture<DenseSlice> slot = slots.get(key);
        return slot == null ? null : slot.getNow(null);
    }

    /**
     * @return the slice
     * @throws PsException {@link ErrorCode#UNKNOWN_KEY} when it was never initialised
     */
    public DenseSlice require(long key) {
        DenseSlice slice = get(key);
        if (slice == null) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, "slice " + SliceKey.describe(key) + " (key " + key
                    + ") is not held by this server; initialise it first");
        }
        return slice;
    }

    /**
     * @param key a slice key
     * @return the slice once it is initialised (at once if it is); cancelling does not affect others
     */
    public Mono<DenseSlice> await(long key) {
        DenseSlice slice = get(key);
        if (slice != null) {
            return Mono.just(slice);
        }
        return Mono.fromFuture(slot(key), true);
    }

    /** @return every initialised slice, in no particular order */
    public List<DenseSlice> slices() {
        List<DenseSlice> all = new ArrayList<>(slots.size());
        for (CompletableFuture<DenseSlice> slot : slots.values()) {
            DenseSlice s = slot.getNow(null);
            if (s != null) {
                all.add(s);
            }
        }
        return all;
    }

    /** @return pulls waiting for a version of an initialised slice, summed over the slices */
    public int waitingPulls() {
        return slices().stream().mapToInt(DenseSlice::waitingPulls).sum();
    }

    /** @return keys that pulls wait for and that are not initialised yet */
    public int waitingKeys() {
        return (int) slots.values().stream().filter(slot -> !slot.isDone()).count();
    }

    private CompletableFuture<DenseSlice> slot(long key) {
        return slots.computeIfAbsent(key, k -> new CompletableFuture<>());
    }
}

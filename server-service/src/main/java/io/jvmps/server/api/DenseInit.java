package io.jvmps.server.api;

import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.checkpoint.LostState;
import io.jvmps.server.consistency.LiveWorkers;
import io.jvmps.server.consistency.SenderCheck;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Route {@value Routes#DENSE_INIT} (request-channel of tensor frames, step -1, one {@link PushAck} back): creates
 * the absent slices with the streamed values; a slice that exists with the same length is left as it is. The
 * sender must be one of the job's worker ranks; the new slices must fit the store's cap, checked before their
 * memory is allocated; a server that replaced a lost one without a checkpoint creates nothing
 * ({@link LostState}). All or nothing. Thread-safe.
 */
@Component
public class DenseInit {
    private final DenseStore store;
    private final ChannelReader reader;
    private final LiveWorkers workers;
    private final LostState lostState;
    private final ServerMetrics metrics;
    private final PushChecks checks;

    /** @param workers the job's worker ranks, for the sender check */
    public DenseInit(DenseStore store, ChannelReader reader, LiveWorkers workers, LostState lostState,
                     ServerMetrics metrics, PushChecks checks) {
        this.store = store;
        this.reader = reader;
        this.workers = workers;
        this.lostState = lostState;
        this.metrics = metrics;
        this.checks = checks;
    }

    /** @return the acknowledgement (step -1) once every slice was created or found, or the first error */
    public Mono<PushAck> init(Flux<DataBuffer> inbound) {
        return metrics.timeInit(reader.read(inbound, this::length).map(tensors -> {
            PushChecks.requireSlices(tensors, "an init");
            SenderCheck.check(tensors.get(0).sender(), workers.ranks());
            if (tensors.get(0).step() != -1) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "init frames carry step -1, got step "
                        + tensors.get(0).step() + " (a push goes to " + Routes.DENSE_PUSH + ")");
            }
            Map<Long, INDArray> values = new LinkedHashMap<>();
            tensors.forEach(t -> values.put(t.key(), t.values()));
            List<ReceivedTensor> absent = tensors.stream().filter(t -> store.get(t.key()) == null).toList();
            if (!absent.isEmpty()) {
                lostState.requireNotLost("an init of slice " + SliceKey.describe(absent.get(0).key()));
            }
            long fresh = absent.stream().mapToLong(t -> 4L * t.values().length()).sum();
            store.requireRoom(fresh, "this init of " + tensors.size() + " slice(s)");
            store.initialize(values);
            return checks.ack(-1, tensors);
        }));
    }

    private int length(TensorChunk first) {
        long n = first.totalElements();
        if (n < 1 || n > Integer.MAX_VALUE / 4) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(first.key()) + " has " + n
                    + " elements; a slice holds 1.." + (Integer.MAX_VALUE / 4));
        }
        DenseSlice existing = store.get(first.key());
        if (existing != null && existing.length() != n) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(first.key())
                    + " already holds " + existing.length() + " elements; init carries " + n);
        }
        if (existing == null) {
            store.requireRoom(4 * n, "slice " + SliceKey.describe(first.key())); // before its memory is allocated
        }
        return (int) n;
    }
}

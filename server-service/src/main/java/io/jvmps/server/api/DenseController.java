package io.jvmps.server.api;

import io.jvmps.common.codec.SliceRequest;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PushLedger;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dense parameter routes: init and push (request-channel of tensor frames, one {@link PushAck}
 * back; a push repeating the sender's last tag gets the original acknowledgement, see
 * {@link PushLedger}) and pull (request-stream: one slice request in, tensor frames out). Errors are
 * {@link PsException}s, which reach the requester as RSocket application errors whose message is
 * {@code [CODE] detail}.
 */
@Controller
public class DenseController {
    private final DenseStore store;
    private final ConsistencyPolicy policy;
    private final ChannelReader reader;
    private final SliceStreamer streamer;
    private final Frames frames;
    private final ServerIdentity identity;
    private final ServerMetrics metrics;
    private final PushLedger ledger;
    private final io.jvmps.server.store.DeclaredModel model;
    private final long maxDenseBytes;
    private final io.jvmps.server.consistency.LiveWorkers liveWorkers;
    private final java.time.Duration idleTimeout;
    private final io.jvmps.server.config.PushApply pushApply;
    private final SlicedPushes slicedPushes;
    private final io.jvmps.server.checkpoint.LostState lostState;

    /** Wires the controller. */
    public DenseController(DenseStore store, ConsistencyPolicy policy, ChannelReader reader, SliceStreamer streamer,
                           Frames frames, ServerIdentity identity, ServerMetrics metrics, PushLedger ledger,
                           io.jvmps.server.store.DeclaredModel model, io.jvmps.server.config.PsServerProperties server,
                           io.jvmps.server.consistency.LiveWorkers liveWorkers,
                           @org.springframework.beans.factory.annotation.Qualifier("pushApplier")
                           java.util.concurrent.Executor pushApplier, io.jvmps.server.checkpoint.LostState lostState) {
        this.lostState = lostState;
        this.slicedPushes = new SlicedPushes(store, policy, ledger, reader, pushApplier);
        this.liveWorkers = liveWorkers;
        this.model = model;
        this.maxDenseBytes = server.maxDenseBytes();
        this.idleTimeout = server.streamIdleTimeout();
        this.pushApply = server.pushApply();
        this.ledger = ledger;
        this.store = store;
        this.policy = policy;
        this.reader = reader;
        this.streamer = streamer;
        this.frames = frames;
        this.identity = identity;
        this.metrics = metrics;
    }

    /**
     * Route {@value Routes#DENSE_INIT}: creates absent slices with the streamed values. The sender must be one of
     * the job's worker ranks, as for a push and a pull.
     */
    @MessageMapping(Routes.DENSE_INIT)
    public Mono<PushAck> init(Flux<DataBuffer> inbound) {
        return metrics.timeInit(reader.read(inbound, this::initLength).map(tensors -> {
            requireSlices(tensors, "an init");
            io.jvmps.server.consistency.SenderCheck.check(tensors.get(0).sender(), liveWorkers.ranks());
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
            requireRoom(fresh, "this init of " + tensors.size() + " slice(s)");
            store.initialize(values);
            return ack(-1, tensors);
        }));
    }

    /** Route {@value Routes#DENSE_PUSH}: hands one worker's gradients for one step to the consistency policy. */
    @MessageMapping(Routes.DENSE_PUSH)
    public Mono<PushAck> push(Flux<DataBuffer> inbound) {
        if (pushApply == io.jvmps.server.config.PushApply.PER_SLICE) {
            return metrics.timePush(slicedPushes.push(inbound, this::pushLength, this::ack));
        }
        return metrics.timePush(reader.read(inbound, this::pushLength,
                (first, length) -> store.require(first.key()).takeGradientBuffer()).map(tensors -> {
            requireSlices(tensors, "a push");
            ReceivedTensor first = tensors.get(0);
            return ledger.applyOnce(first.sender(), first.tag(), first.step(), () -> {
                List<GradientPush.SliceGradient> gradients = tensors.stream()
                        .map(t -> new GradientPush.SliceGradient(store.require(t.key()), t.values()))
                        .toList();
                policy.accept(new GradientPush(first.sender(), first.step(), gradients));
                return ack(first.step(), tensors);
            });
        }));
    }

    /**
     * Route {@value Routes#DENSE_PUSH} as a request-response: a push whose frames fit one payload (a packed LeNet
     * push, say) arrives and is answered in one frame each way, without the request-channel's completion frame and
     * credit frame; validated and applied exactly like the channel form.
     */
    @MessageMapping(Routes.DENSE_PUSH)
    public Mono<PushAck> pushOnePayload(DataBuffer payload) {
        return push(Flux.just(payload));
    }

    /** Route {@value Routes#DENSE_PULL}: streams the requested slices once they reached the version. */
    @MessageMapping(Routes.DENSE_PULL)
    public Flux<DataBuffer> pull(DataBuffer request) {
        String peer = io.jvmps.common.security.PeerAddresses.current();
        return metrics.timePull(Mono.fromCallable(() -> frames.decodeRequest(request))
                .flatMap(this::ready)
                .flatMapMany(streamer::stream)
                // after the first frame, a puller that asks for no further frame within the idle timeout is
                // cut off, so it cannot pin a slice copy forever (the wait for the first is the pull deadline's)
                .timeout(Mono.never(), frame -> Mono.delay(idleTimeout))
                .onErrorMap(java.util.concurrent.TimeoutException.class, e -> stalledPull(peer))
                .doOnNext(frame -> metrics.bytesOut(frame.readableByteCount()))
                .doOnDiscard(DataBuffer.class, DataBufferUtils::release));
    }

    private PsException stalledPull(String peer) {
        String what = "a pull's requester asked for no further frame for " + idleTimeout
                + " (ps.server.stream-idle-timeout); the pull was cancelled";
        return Stalls.report(org.slf4j.LoggerFactory.getLogger(DenseController.class), what, peer);
    }

    private Mono<List<DenseSlice>> ready(SliceRequest request) {
        if (request.minVersion() < 0) {
            return Mono.error(new PsException(ErrorCode.INVALID_ARGUMENT, "minVersion must be >= 0, got "
                    + request.minVersion()));
        }
        io.jvmps.server.consistency.SenderCheck.check(request.sender(), liveWorkers.ranks());
        PullKeys.requireKnown(request.keys(), store, model, identity, lostState); // both throw inside the flatMap
        return policy.awaitReady(request.sender(), request.keys(), request.minVersion());
    }

    private int initLength(TensorChunk first) {
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
            requireRoom(4 * n, "slice " + SliceKey.describe(first.key())); // before its memory is allocated
        }
        return (int) n;
    }

    /** @throws PsException RESOURCE_EXHAUSTED when {@code bytes} more would pass ps.server.max-dense-bytes */
    private void requireRoom(long bytes, String what) {
        long held = 4L * store.slices().stream().mapToLong(DenseSlice::length).sum();
        if (held + bytes > maxDenseBytes) {
            throw new PsException(ErrorCode.RESOURCE_EXHAUSTED, what + " needs " + bytes + " bytes but the dense "
                    + "slices here hold " + held + " of ps.server.max-dense-bytes=" + maxDenseBytes);
        }
    }

    private int pushLength(TensorChunk first) {
        DenseSlice slice = store.require(first.key());
        if (first.totalElements() != slice.length()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(first.key()) + " holds "
                    + slice.length() + " elements; push from worker " + first.sender() + " carries "
                    + first.totalElements());
        }
        return slice.length();
    }

    /** @throws PsException INVALID_ARGUMENT when a channel ({@code what}: "a push", "an init") carried no slice */
    static void requireSlices(List<ReceivedTensor> tensors, String what) {
        if (tensors.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, what + " stream carried no slice; send at least one");
        }
    }

    private PushAck ack(long step, List<ReceivedTensor> tensors) {
        long elements = tensors.stream().mapToLong(t -> store.require(t.key()).length()).sum(); // arrays may be handed on
        return new PushAck(identity.rank(), step, tensors.size(), elements);
    }
}

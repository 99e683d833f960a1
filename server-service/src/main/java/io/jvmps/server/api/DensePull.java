package io.jvmps.server.api;

import io.jvmps.common.codec.SliceRequest;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.security.PeerAddresses;
import io.jvmps.server.checkpoint.LostState;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.config.PsServerProperties;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.LiveWorkers;
import io.jvmps.server.consistency.SenderCheck;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Route {@value Routes#DENSE_PULL} (request-stream: one slice request in, tensor frames out): streams the requested
 * slices once the consistency policy says they are ready for the pulling worker. The sender's rank is checked first,
 * then the keys: a key this server does not hold fails at once, not after the pull deadline. Thread-safe.
 */
@Component
public class DensePull {
    private final DenseStore store;
    private final ConsistencyPolicy policy;
    private final SliceStreamer streamer;
    private final Frames frames;
    private final DeclaredModel model;
    private final ServerIdentity identity;
    private final LostState lostState;
    private final ServerMetrics metrics;
    private final Duration idleTimeout;
    private final LiveWorkers workers;

    /**
     * @param workers the job's worker ranks, for the sender check
     * @param server  gives {@code ps.server.stream-idle-timeout}, the longest wait for the puller's next request
     */
    public DensePull(DenseStore store, ConsistencyPolicy policy, SliceStreamer streamer, Frames frames,
                     DeclaredModel model, ServerIdentity identity, LostState lostState, ServerMetrics metrics,
                     LiveWorkers workers, PsServerProperties server) {
        this.workers = workers;
        this.store = store;
        this.policy = policy;
        this.streamer = streamer;
        this.frames = frames;
        this.model = model;
        this.identity = identity;
        this.lostState = lostState;
        this.metrics = metrics;
        this.idleTimeout = server.streamIdleTimeout();
    }

    /** @return the slices' frames, in request order, or the error */
    public Flux<DataBuffer> pull(DataBuffer request) {
        String peer = PeerAddresses.current();
        return metrics.timePull(Mono.fromCallable(() -> frames.decodeRequest(request))
                .flatMap(this::ready)
                .flatMapMany(streamer::stream)
                // after the first frame, a puller that asks for no further frame within the idle timeout is
                // cut off, so it cannot pin a slice copy forever (the wait for the first is the pull deadline's)
                .timeout(Mono.never(), frame -> Mono.delay(idleTimeout))
                .onErrorMap(TimeoutException.class, e -> stalled(peer))
                .doOnNext(frame -> metrics.bytesOut(frame.readableByteCount()))
                .doOnDiscard(DataBuffer.class, DataBufferUtils::release));
    }

    private Mono<List<DenseSlice>> ready(SliceRequest request) {
        if (request.minVersion() < 0) {
            return Mono.error(new PsException(ErrorCode.INVALID_ARGUMENT, "minVersion must be >= 0, got "
                    + request.minVersion()));
        }
        // thrown inside the flatMap, so the pull fails at once: a key this server will never hold does not wait
        SenderCheck.check(request.sender(), workers.ranks()); // the pull's one sender check
        PullKeys.requireKnown(request.keys(), store, model, identity, lostState);
        return policy.awaitReady(request.sender(), request.keys(), request.minVersion());
    }

    private PsException stalled(String peer) {
        String what = "a pull's requester asked for no further frame for " + idleTimeout
                + " (ps.server.stream-idle-timeout); the pull was cancelled";
        return Stalls.report(LoggerFactory.getLogger(DensePull.class), what, peer);
    }
}

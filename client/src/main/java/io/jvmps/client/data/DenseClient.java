package io.jvmps.client.data;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.SliceRequest;
import io.jvmps.common.codec.SliceRequestCodec;
import io.jvmps.common.codec.TensorAssembler;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.PayloadPacking;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.client.transport.RoutedPayloads;
import io.jvmps.client.transport.ServerConnections;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.nd4j.linalg.api.ndarray.INDArray;
import io.rsocket.Payload;
import io.rsocket.core.RSocketClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dense data plane (ps-lite style): {@link #init}, {@link #push} and {@link #pull} of whole dense
 * parameters (declared first with {@link io.jvmps.client.control.ControlClient#declareDense}), each cut into the slices of a {@link ShardMap} and sent to every
 * owning server in parallel, as binary chunk frames. Push, init and pull go as raw RSocket payloads on the
 * server connection (the route in composite metadata, as Spring writes it), without Spring's encoders
 * and decoders, which cost a small request more CPU than its data. Arrays are indexed like
 * {@link ShardMap#params()}. Blocking calls, each with a deadline; errors surface as
 * {@link PsException} naming the server and route, with the code: TIMEOUT (no answer within the deadline,
 * e.g. a SYNC step other workers never pushed), NOT_READY (a connection or server lost: see
 * {@link io.jvmps.client.control.ControlClient#latestCheckpoint} and {@code rollBack}), WRONG_STEP or
 * ROLLED_BACK (the servers' state moved under the step: join again or recover), NON_FINITE (a NaN
 * or infinite gradient, refused whole), SHAPE_MISMATCH or INVALID_ARGUMENT (arrays that do not match the
 * declared parameters; nothing is sent), NOT_INITIALIZED or UNKNOWN_KEY (pull before init or declare).
 * Thread-safe for calls that do not overlap on the same destination arrays.
 */
public class DenseClient {
    private static final int SEQUENCE_BITS = 40;
    private static final int PUSH_RETRIES = 2;
    /** Pull payloads (each at most one chunk frame, 1 MiB by default) requested ahead of the one being decoded. */
    static final int PULL_WINDOW_PAYLOADS = 8;
    private final ServerConnections connections;
    private final ShardMap shardMap;
    private final int rank;
    private final Duration timeout;
    private final int chunkBytes;
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        private final AtomicLong bytesPushed = new AtomicLong();
    private final AtomicLong bytesPulled = new AtomicLong();
    /** Push sequence numbers, shared by every client of this process (a recovery makes a new client). */
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final long incarnation;

    /**
     * @param connections one connection per server rank
     * @param shardMap    slice placement, same on every worker
     * @param rank        this worker's rank
     * @param timeout     deadline of one push or pull (including server-side waits)
     * @param chunkBytes  data bytes per frame
     */
    public DenseClient(ServerConnections connections, ShardMap shardMap, int rank, Duration timeout, int chunkBytes) {
        this(connections, shardMap, rank, timeout, chunkBytes, processIncarnation());
    }

    /**
     * @param incarnation identifies this worker process among restarts of the same rank (24 bits, not 0);
     *                    it goes into every push's tag with a sequence number
     */
    public DenseClient(ServerConnections connections, ShardMap shardMap, int rank, Duration timeout, int chunkBytes,
                    long incarnation) {
        if (incarnation <= 0 || incarnation >= (1L << 24)) {
            throw new IllegalArgumentException("incarnation must be in [1, 2^24), got " + incarnation);
        }
        this.incarnation = incarnation;
        if (connections.size() != shardMap.servers()) {
            throw new IllegalArgumentException(connections.size() + " connections for a map over "
                    + shardMap.servers() + " servers");
        }
        this.connections = connections;
        this.shardMap = shardMap;
        this.rank = rank;
        this.timeout = timeout;
        this.chunkBytes = chunkBytes;
    }

    /** @return an incarnation for this process: from its pid and start time, in [1, 2^24) */
    public static long processIncarnation() {
        ProcessHandle self = ProcessHandle.current();
        long start = self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
        long mixed = (self.pid() * 0x9E3779B97F4A7C15L) ^ start;
        mixed ^= mixed >>> 29;
        return (mixed & 0xFFFFFEL) + 1;
    }

    /** @return the slice placement */
    public ShardMap shardMap() {
        return shardMap;
    }

    /** @return the connections this client sends on */
    public ServerConnections connections() {
        return connections;
    }

    /** @return the deadline of one call */
    public Duration timeout() {
        return timeout;
    }

    /** @return this worker's rank, which tags its pushes and joins */
    public int rank() {
        return rank;
    }

    /** @return float32 bytes pushed (init and gradients) since start */
    public long bytesPushed() {
        return bytesPushed.get();
    }

    /** @return float32 bytes pulled since start */
    public long bytesPulled() {
        return bytesPulled.get();
    }

    /** Seeds every slice on the servers with initial values (first initialisation wins). */
    public void init(INDArray[] values) {
        sendAll(Routes.DENSE_INIT, -1, 0, values);
    }

    /** Pushes the gradients of one step. Returns once every server accepted its slices. */
    public void push(long step, INDArray[] gradients) {
        sendAll(Routes.DENSE_PUSH, step, nextPushTag(), gradients);
    }

    /**
     * Pulls every parameter once all its slices reached {@code minVersion}, writing into
     * {@code destination} (dense float32 C-order arrays shaped like the parameters).
     */
    public void pull(long minVersion, INDArray[] destination) {
        checkArity(destination);
        Flux.range(0, shardMap.servers())
                .flatMap(server -> pullFrom(server, minVersion, destination), shardMap.servers())
                .then()
                .block(timeout.plusSeconds(5));
    }

    /**
     * @return the next push's tag: this client's incarnation (24 bits) above a sequence number (40 bits),
     *         so a server tells a retried push from a new one
     */
    private long nextPushTag() {
        return (incarnation << SEQUENCE_BITS) | (SEQUENCE.incrementAndGet() & ((1L << SEQUENCE_BITS) - 1));
    }

    private void sendAll(String route, long step, long tag, INDArray[] values) {
        checkArity(values);
        INDArray[] dense = new INDArray[values.length];
        for (int p = 0; p < values.length; p++) {
            dense[p] = Buffers.dense(values[p]);
        }
        Flux.range(0, shardMap.servers())
                .flatMap(server -> sendTo(server, route, step, tag, dense), shardMap.servers())
                .then()
                .block(timeout.multipliedBy(PUSH_RETRIES + 1L).plusSeconds(5));
    }

    private Mono<Void> sendTo(int server, String route, long step, long tag, INDArray[] values) {
        List<Slice> slices = shardMap.slicesOf(server);
        if (slices.isEmpty()) {
            return Mono.empty();
        }
        // small slices travel packed in one payload: for a LeNet push one payload per server
        List<List<Slice>> groups = PayloadPacking.groups(slices, slice -> 4L * slice.length(), chunkBytes);
        // a push of one payload goes as a request-response: one frame each way, where a request-channel also
        // sends a completion frame after the payload and the server a credit frame, and the server's answer
        // waits for the completion
        boolean onePayload = route.equals(Routes.DENSE_PUSH)
                && PayloadPacking.payloadCount(groups, slice -> 4L * slice.length(), chunkBytes) == 1;
        // a push whose acknowledgement is lost is sent again with the same tag: the server answers the
        // original acknowledgement and applies nothing twice. The acknowledgement's content is not needed: its
        // arrival is what counts, and an error comes back as an application error instead
        return Mono.defer(() -> {
                    Flux<ByteBuf> frames = Flux.fromIterable(groups)
                            .concatMapIterable(group -> payloads(group, step, tag, values))
                            .map(this::encodeReleasing);
                    RSocketClient rsocket = connections.rsocket(server);
                    Mono<Payload> ack = onePayload
                            ? rsocket.requestResponse(frames.single().map(data -> connections.routed().first(route, data)))
                            : rsocket.requestChannel(frames.index().map(indexed -> indexed.getT1() == 0
                                    ? connections.routed().first(route, indexed.getT2()) : RoutedPayloads.next(indexed.getT2())))
                                    .single();
                    return ack.doOnNext(Payload::release).then().timeout(timeout);
                })
                .retryWhen(reactor.util.retry.Retry.max(tag == 0 ? 0 : PUSH_RETRIES)
                        .filter(e -> e instanceof java.util.concurrent.TimeoutException))
                .onErrorMap(e -> translate(server, route, reactor.core.Exceptions.unwrap(
                        e instanceof IllegalStateException && e.getCause() != null ? e.getCause() : e)));
    }

    /** @return the payloads of one packing group: its slices' chunks together, or a lone slice's chunks one by one */
    private List<List<TensorChunk>> payloads(List<Slice> group, long step, long tag, INDArray[] values) {
        List<TensorChunk> chunks = new java.util.ArrayList<>();
        for (Slice slice : group) {
            ByteBuf part = Buffers.wrap(values[slice.paramIndex()]).slice((int) (slice.offset() * 4), slice.length() * 4);
            chunks.addAll(TensorChunker.split(DType.FLOAT32, slice.key(), step, rank, tag, new long[] {slice.length()},
                    part, chunkBytes));
        }
        return group.size() == 1 ? chunks.stream().map(List::of).toList() : List.of(chunks);
    }

    private ByteBuf encodeReleasing(List<TensorChunk> chunks) {
        try {
            chunks.forEach(chunk -> bytesPushed.addAndGet(chunk.count() * 4L));
            return TensorChunkCodec.encodeAll(alloc, chunks);
        } finally {
            chunks.forEach(TensorChunk::release);
        }
    }

    private Mono<Void> pullFrom(int server, long minVersion, INDArray[] destination) {
        List<Slice> slices = shardMap.slicesOf(server);
        if (slices.isEmpty()) {
            return Mono.empty();
        }
        long[] keys = slices.stream().mapToLong(Slice::key).toArray();
        AtomicInteger received = new AtomicInteger();
        TensorAssembler assembler = new TensorAssembler(Integer.MAX_VALUE,
                chunk -> destinationOf(server, chunk, keys[received.get()], destination));
        return Mono.defer(() -> {
            ByteBuf request = SliceRequestCodec.encode(alloc, new SliceRequest(minVersion, rank, keys));
            return connections.rsocket(server)
                    .requestStream(Mono.just(connections.routed().first(Routes.DENSE_PULL, request)))
                    // a bounded demand: the server copies a slice only when its payload is wanted, so a pull of a big
                    // model holds a few payloads in flight on both ends, not a snapshot of the whole model
                    .limitRate(PULL_WINDOW_PAYLOADS)
                    .doOnNext(buffer -> accept(assembler, buffer, received))
                    .then(Mono.fromRunnable(() -> {
                        if (received.get() != keys.length) {
                            throw new PsException(ErrorCode.MALFORMED_FRAME, "server " + server + " answered "
                                    + received.get() + " of " + keys.length + " requested slices");
                        }
                    }))
                    .then()
                    .timeout(timeout)
                    .onErrorMap(e -> translate(server, Routes.DENSE_PULL, e));
        });
    }

    private void accept(TensorAssembler assembler, Payload payload, AtomicInteger received) {
        List<TensorChunk> chunks = List.of();
        try {
            chunks = TensorChunkCodec.decodeAll(payload.sliceData());
            for (TensorChunk chunk : chunks) {
                bytesPulled.addAndGet(chunk.count() * 4L);
                if (assembler.accept(chunk) != null) {
                    received.incrementAndGet();
                }
            }
        } finally {
            chunks.forEach(TensorChunk::release);
            payload.release();
        }
    }

    private ByteBuffer destinationOf(int server, TensorChunk first, long expectedKey, INDArray[] destination) {
        Slice slice = shardMap.slice(first.key());
        if (first.key() != expectedKey || slice == null || slice.server() != server) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, "server " + server + " sent key " + first.key()
                    + " where key " + expectedKey + " was expected");
        }
        if (first.dtype() != DType.FLOAT32 || first.totalElements() != slice.length()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "server " + server + " sent " + first.totalElements()
                    + " " + first.dtype() + " elements for " + slice.paramName() + " slice at " + slice.offset()
                    + ", expected " + slice.length() + " FLOAT32");
        }
        ByteBuffer whole = Buffers.nio(destination[slice.paramIndex()]);
        return whole.position((int) (slice.offset() * 4)).limit((int) ((slice.offset() + slice.length()) * 4))
                .slice().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    private void checkArity(INDArray[] arrays) {
        List<ParamSpec> params = shardMap.params();
        if (arrays.length != params.size()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, arrays.length + " arrays for " + params.size()
                    + " parameters");
        }
        for (int p = 0; p < arrays.length; p++) {
            if (arrays[p].length() != params.get(p).elements()) {
                throw new PsException(ErrorCode.SHAPE_MISMATCH, "parameter " + params.get(p) + " given "
                        + arrays[p].length() + " elements");
            }
        }
    }

    private Throwable translate(int server, String route, Throwable e) {
        return connections.translate(server, route, e, timeout);
    }
}

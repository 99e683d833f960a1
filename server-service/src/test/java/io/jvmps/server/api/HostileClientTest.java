package io.jvmps.server.api;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseStore;
import io.jvmps.server.support.TestTensors;
import org.springframework.core.io.buffer.DataBuffer;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.netty.buffer.ByteBufAllocator;

import io.netty.buffer.Unpooled;
import io.rsocket.Payload;



import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.messaging.rsocket.RSocketRequester;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jvmps.server.support.TestTensors.tensor;
import static io.jvmps.server.support.TestRequesters.routed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A client of our own that speaks raw RSocket (no Spring encoding) and sends what a broken or hostile peer
 * might: metadata that is not composite, no route, a route in the wrong interaction, fire-and-forget and
 * metadata-push frames. Each gets a {@code [CODE] message} answer (or is dropped, for frames that have no
 * answer), the server logs no stack trace for any of them, and it goes on serving.
 */
@ServerSpringTest
@ExtendWith(OutputCaptureExtension.class)
class HostileClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    ChannelReader reader;
    @Autowired
    DenseStore store;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private static Payload payload(String data, io.netty.buffer.ByteBuf metadata) {
        return ByteBufPayload.create(Unpooled.copiedBuffer(data, StandardCharsets.UTF_8), metadata);
    }

    private void assertCoded(Mono<?> answer, String code) {
        assertThatThrownBy(() -> answer.block(WAIT)).hasMessageStartingWith("[" + code + "] ");
    }

    @Test
    void stalledInitStreamsAnnouncingLargeTensorsGiveTheirMemoryBackByTheStreamDeadline(CapturedOutput output) {
        long kept = SliceKey.of(71, 0);
        requester.route(Routes.DENSE_INIT).data(Flux.fromIterable(TestTensors.frames(-1, 0, tensor(kept, 1, 2, 3))),
                DataBuffer.class).retrieveFlux(PushAck.class).blockLast(WAIT);
        MemoryReading before = MemoryReading.settled();
        long reservedBefore = reader.budget().used();
        int streams = 3;
        long elements = 32L << 20; // 128 MiB each, announced by a 4 KiB first frame
        List<CompletableFuture<PushAck>> stalled = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            stalled.add(requester.route(Routes.DENSE_INIT)
                    .data(Flux.concat(Flux.just(announcing(SliceKey.of(70, i), elements)), Flux.never()), DataBuffer.class)
                    .retrieveFlux(PushAck.class).single().toFuture());
        }
        long announced = streams * elements * 4;
        io.jvmps.server.support.Await.until(() -> reader.budget().used() - reservedBefore == announced, Duration.ofSeconds(10),
                () -> "all three reservations (reserved " + reader.budget().used() + ", streams " + stalled + ")");
        MemoryReading during = MemoryReading.now();
        for (CompletableFuture<PushAck> stream : stalled) {
            assertThatThrownBy(() -> stream.get(10, TimeUnit.SECONDS)).hasMessageContaining("[TIMEOUT] ")
                    .hasMessageContaining("ps.server.stream-idle-timeout");
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos(); // frees at the deadline, not at a GC
        MemoryReading after = MemoryReading.now();
        while (System.nanoTime() < deadline && !(reader.budget().used() == 0 && after.closeTo(before))) {
            after = MemoryReading.now();
            Thread.onSpinWait();
        }
        assertThat(output.getAll()).as("each stall logged once at WARN with the peer's address")
                .contains("ChannelReader - an init or push stream sent no frame").contains("(peer /127.0.0.1:");
        System.out.printf("hostile-client memory: before %s, while stalled %s, after %s%n", before, during, after);
        // against the lower of the readings around it: memory an earlier test left may still be returned meanwhile
        long baseline = Math.min(before.residentBytes(), after.residentBytes());
        assertThat(during.residentBytes() - baseline).as("the stalled streams' tensors took memory")
                .isGreaterThan(128L << 20);
        assertThat(reader.budget().used()).as("reservations given back").isZero();
        assertThat(after.residentBytes() - before.residentBytes()).as("resident memory back within "
                + (MemoryReading.RSS_SLACK >> 20) + " MiB, without waiting for a GC").isLessThan(MemoryReading.RSS_SLACK);
        assertThat(after.nettyDirectBytes() - before.nettyDirectBytes()).as("Netty direct bytes back within 4 MiB")
                .isLessThan(MemoryReading.NETTY_SLACK);
        for (int i = 0; i < streams; i++) {
            assertThat(store.get(SliceKey.of(70, i))).as("nothing created").isNull();
        }
        List<DataBuffer> pulled = requester.route(Routes.DENSE_PULL).data(TestTensors.request(0, 0, kept))
                .retrieveFlux(DataBuffer.class).collectList().block(WAIT);
        assertThat(TestTensors.assemble(pulled).get(kept).values()).as("the server still serves, values unchanged")
                .containsExactly(1, 2, 3);
    }

    @Test
    void aPullerThatStopsAskingForFramesIsCutOffAfterTheIdleTimeout(CapturedOutput output) throws Exception {
        long big = SliceKey.of(72, 0);
        float[] values = new float[600_000]; // 2.4 MB: three 1 MiB frames
        requester.route(Routes.DENSE_INIT).data(Flux.fromIterable(TestTensors.frames(-1, 0, tensor(big, values))),
                DataBuffer.class).retrieveFlux(PushAck.class).blockLast(WAIT);
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
        requester.route(Routes.DENSE_PULL).data(TestTensors.request(0, 0, big)).retrieveFlux(DataBuffer.class)
                .subscribe(new reactor.core.publisher.BaseSubscriber<DataBuffer>() {
                    @Override
                    protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                        subscription.request(1); // and never more
                    }

                    @Override
                    protected void hookOnNext(DataBuffer frame) {
                        received.incrementAndGet();
                        org.springframework.core.io.buffer.DataBufferUtils.release(frame);
                    }

                    @Override
                    protected void hookOnError(Throwable error) {
                        ended.complete(error);
                    }

                    @Override
                    protected void hookOnComplete() {
                        ended.complete(null);
                    }
                });
        Throwable error = ended.get(10, TimeUnit.SECONDS);
        assertThat(error).as("cut off, not completed").isNotNull()
                .hasMessageStartingWith("[TIMEOUT] a pull's requester asked for no further frame for PT2S");
        assertThat(received.get()).isEqualTo(1);
        assertThat(output.getAll()).contains("the pull was cancelled (peer /127.0.0.1:");
        List<DataBuffer> whole = requester.route(Routes.DENSE_PULL).data(TestTensors.request(0, 0, big))
                .retrieveFlux(DataBuffer.class).collectList().block(WAIT);
        assertThat(TestTensors.assemble(whole).get(big).values()).as("a reading puller still gets it all")
                .hasSize(values.length);
    }

    /** @return the first frame of an init of {@code elements} floats, carrying only its first 1024 */
    private static DataBuffer announcing(long key, long elements) {
        io.netty.buffer.ByteBuf data = ByteBufAllocator.DEFAULT.buffer(4096).writeZero(4096);
        TensorChunk chunk = new TensorChunk(DType.FLOAT32, key, -1, 0, 0, new long[] {elements}, 0, 1024, data);
        try {
            return TestTensors.FACTORY.wrap(TensorChunkCodec.encode(ByteBufAllocator.DEFAULT, chunk));
        } finally {
            chunk.release();
        }
    }

    /**
     * Netty pooled direct bytes and resident bytes of this JVM at one moment. nd4j allocates its buffers
     * outside javacpp's counters, so resident memory (what the operator sees) is the measure for them.
     */
    private record MemoryReading(long nettyDirectBytes, long residentBytes) {
        static final long RSS_SLACK = 16L << 20;
        static final long NETTY_SLACK = 4L << 20;

        static MemoryReading now() {
            return new MemoryReading(io.netty.buffer.PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(),
                    org.bytedeco.javacpp.Pointer.physicalBytes());
        }

        /** @return a reading after a garbage collection, so earlier tests' garbage does not count */
        /**
         * After a GC, native memory of collected arrays is freed by a deallocator thread a little later: polls until
         * the resident set holds still (two readings 50 ms apart within 2 MiB, at most 5 s), so that what an earlier
         * test left for the collector is not counted as this test's baseline.
         */
        static MemoryReading settled() {
            System.gc();
            MemoryReading last = now();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                MemoryReading next = now();
                if (Math.abs(next.residentBytes - last.residentBytes) < (2L << 20)) {
                    return next;
                }
                last = next;
            }
            return last;
        }

        boolean closeTo(MemoryReading base) {
            return residentBytes - base.residentBytes < RSS_SLACK && nettyDirectBytes - base.nettyDirectBytes < NETTY_SLACK;
        }

        @Override
        public String toString() {
            return String.format("netty %d MiB, rss %d MiB", nettyDirectBytes >> 20, residentBytes >> 20);
        }
    }

    @Test
    void anInitFromARankOutsideTheJobIsRefusedAndCreatesNothing(CapturedOutput output) {
        long key = SliceKey.of(73, 0);
        for (int sender : new int[] {1, 7, -1, Integer.MAX_VALUE}) { // the job has one worker: rank 0
            assertThatThrownBy(() -> requester.route(Routes.DENSE_INIT)
                    .data(Flux.fromIterable(TestTensors.frames(-1, sender, tensor(key, 1, 2))), DataBuffer.class)
                    .retrieveFlux(PushAck.class).blockLast(WAIT))
                    .hasMessageStartingWith("[INVALID_ARGUMENT] sender rank " + sender + " is outside the job's workers");
            assertThat(store.get(key)).as("sender " + sender + ": nothing created").isNull();
        }
        requester.route(Routes.DENSE_INIT).data(Flux.fromIterable(TestTensors.frames(-1, 0, tensor(key, 1, 2))),
                DataBuffer.class).retrieveFlux(PushAck.class).blockLast(WAIT);
        assertThat(store.get(key)).as("rank 0 may").isNotNull();
        assertThat(output.getAll()).doesNotContain("\tat ");
    }

    @Test
    void aPushOrInitWhosePayloadIsEmptyGetsACodedErrorAndNoDoubleRelease(CapturedOutput output) {
        var client = requester.rsocketClient();
        for (String route : List.of(Routes.DENSE_PUSH, Routes.DENSE_INIT)) {
            assertThatThrownBy(() -> client.requestChannel(Flux.just(payload("", routed(route)))).blockLast(WAIT))
                    .as(route + " as a channel").hasMessageStartingWith("[");
        }
        assertThatThrownBy(() -> client.requestResponse(Mono.fromSupplier(() -> payload("", routed(Routes.DENSE_PUSH))))
                .block(WAIT)).as("a push as a request-response").hasMessageStartingWith("[");
        assertThat(requester.route(Routes.SERVER_STATUS).retrieveMono(String.class).block(WAIT))
                .as("the same connection still serves").contains("\"rank\"");
        assertThat(output.getAll()).doesNotContain("\tat ").doesNotContain(" ERROR ")
                .doesNotContain("IllegalReferenceCountException");
    }

    @Test
    void malformedMetadataMissingRoutesAndWrongInteractionsGetCodedErrorsAndNoStackTrace(CapturedOutput output) {
        var client = requester.rsocketClient();
        assertCoded(client.requestResponse(Mono.fromSupplier(() ->
                payload("{}", Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 1, 2, 3, 4})))), "INVALID_ARGUMENT");
        assertCoded(client.requestResponse(Mono.fromSupplier(() -> payload("{}", Unpooled.EMPTY_BUFFER))),
                "INVALID_ARGUMENT");
        assertCoded(client.requestResponse(Mono.fromSupplier(() -> payload("x", routed(Routes.DENSE_PULL)))),
                "INVALID_ARGUMENT");
        assertCoded(client.requestResponse(Mono.fromSupplier(() -> payload("x", routed(Routes.DENSE_INIT)))),
                "INVALID_ARGUMENT");
        // a push of one payload may come as a request-response: a garbage one is a bad frame, not a bad route
        assertCoded(client.requestResponse(Mono.fromSupplier(() -> payload("x", routed(Routes.DENSE_PUSH)))),
                "MALFORMED_FRAME");
        assertCoded(client.requestStream(Mono.fromSupplier(() -> payload("x", routed(Routes.SERVER_STATUS))))
                .then(), "INVALID_ARGUMENT");
        assertCoded(client.requestChannel(Flux.just(payload("x", routed("ps.v1.nope")))).then(),
                "INVALID_ARGUMENT");
        client.fireAndForget(Mono.fromSupplier(() -> payload("x", routed(Routes.DENSE_PUSH)))).block(WAIT);
        client.fireAndForget(Mono.fromSupplier(() -> payload("x", Unpooled.wrappedBuffer(new byte[] {9})))).block(WAIT);
        client.metadataPush(Mono.fromSupplier(() -> payload("", Unpooled.wrappedBuffer(new byte[] {7, 7})))).block(WAIT);

        assertThat(requester.route(Routes.SERVER_STATUS).retrieveMono(String.class).block(WAIT))
                .as("the same connection still serves").contains("\"rank\"");
        assertThat(output.getAll()).doesNotContain("\tat ").doesNotContain(" ERROR ")
                .doesNotContain("IllegalReferenceCountException");
    }
}

package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestTensors;



import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.exceptions.ApplicationErrorException;



import io.rsocket.util.ByteBufPayload;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jvmps.server.support.TestTensors.tensor;
import static io.jvmps.server.support.TestRequesters.routed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The data path answers init, push and pull itself, in the answers Spring's dispatch gives, and hands everything else to
 * the responder it wraps (here a stand-in that records what reached it).
 */
@ServerSpringTest
class DataPathResponderTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    DataHandlers handlers;
    @Autowired
    NettyDataBufferFactory buffers;
    @Autowired
    io.jvmps.server.sparse.SparseTables tables;

    private final List<String> reachedSpring = new ArrayList<>();

    private final RSocket spring = new RSocket() {
        @Override
        public Mono<Payload> requestResponse(Payload payload) {
            payload.release();
            reachedSpring.add("request-response");
            return Mono.just(DefaultPayload.create("spring"));
        }

        @Override
        public Flux<Payload> requestStream(Payload payload) {
            payload.release();
            reachedSpring.add("request-stream");
            return Flux.just(DefaultPayload.create("spring"));
        }

        @Override
        public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
            reachedSpring.add("request-channel");
            return Flux.from(payloads).doOnNext(Payload::release).thenMany(Flux.just(DefaultPayload.create("spring")));
        }
    };

    private static Payload payload(DataBuffer data, String route) {
        return ByteBufPayload.create(((NettyDataBuffer) data).getNativeBuffer(), routed(route));
    }

    @Test
    void initPushAndPullAreAnsweredWithoutSpringEverythingElseGoesThrough() {
        RSocket responder = DataPathResponder.wrap(spring, handlers, buffers);
        long a = SliceKey.of(90, 0);
        Payload initAck = responder.requestChannel(Flux.concat(Flux.just(ByteBufPayload.create(
                        io.netty.buffer.Unpooled.EMPTY_BUFFER, routed(Routes.DENSE_INIT))),
                Flux.fromIterable(TestTensors.frames(-1, 0, tensor(a, 1, 2)))
                        .map(b -> ByteBufPayload.create(((NettyDataBuffer) b).getNativeBuffer())))).single().block(WAIT);
        assertThat(initAck.getDataUtf8()).isEqualTo(DataPathResponder.json(new PushAck(0, -1, 1, 2)));
        initAck.release();

        Payload ack = responder.requestResponse(payload(TestTensors.packed(TestTensors.frames(0, 0, tensor(a, 2, 2))),
                Routes.DENSE_PUSH)).block(WAIT);
        assertThat(ack.getDataUtf8()).isEqualTo(DataPathResponder.json(new PushAck(0, 0, 1, 2)))
                .isEqualTo("{\"server\":0,\"step\":0,\"slices\":1,\"elements\":2}");
        ack.release();

        Flux<Payload> channel = Flux.concat(Flux.just(ByteBufPayload.create(io.netty.buffer.Unpooled.EMPTY_BUFFER,
                routed(Routes.DENSE_PUSH))), Flux.fromIterable(TestTensors.frames(1, 0, tensor(a, 2, 2)))
                .map(b -> ByteBufPayload.create(((NettyDataBuffer) b).getNativeBuffer())));
        Payload channelAck = responder.requestChannel(channel).single().block(WAIT);
        assertThat(channelAck.getDataUtf8()).contains("\"step\":1");
        channelAck.release();

        List<DataBuffer> frames = responder.requestStream(payload(TestTensors.request(2, 0, a), Routes.DENSE_PULL))
                .map(p -> (DataBuffer) buffers.wrap(p.sliceData().retain())).collectList().block(WAIT);
        Map<Long, TestTensors.Pulled> pulled = TestTensors.assemble(frames);
        assertThat(pulled.get(a).values()).containsExactly(-1f, 0f); // 1 - 0.5*2 - 0.5*2, 2 - 0.5*2 - 0.5*2
        tables.declare(new io.jvmps.common.sparse.SparseTableSpec("rows", 2, 1, 0f, null));
        Payload sparseAck = responder.requestResponse(payload(buffers.wrap(io.jvmps.common.sparse.SparseCodec.encodePush(
                buffers.getByteBufAllocator(), new io.jvmps.common.sparse.SparsePush("rows", 0, 3,
                        io.jvmps.common.sparse.UpdateKind.DELTA, 2, new long[] {7}, new float[] {1.5f, -2f}))),
                Routes.SPARSE_PUSH)).block(WAIT);
        assertThat(sparseAck.getDataUtf8()).isEqualTo(DataPathResponder.json(new PushAck(0, 3, 1, 2)));
        sparseAck.release();
        Payload rows = responder.requestResponse(payload(buffers.wrap(io.jvmps.common.sparse.SparseCodec.encodePull(
                buffers.getByteBufAllocator(), new io.jvmps.common.sparse.SparsePull("rows", 0, new long[] {7}))),
                Routes.SPARSE_PULL)).block(WAIT);
        assertThat(io.jvmps.common.sparse.SparseCodec.decodeRows(rows.sliceData(), 2, 1)).containsExactly(1.5f, -2f);
        rows.release();
        assertThatThrownBy(() -> responder.requestResponse(payload(buffers.wrap(
                io.jvmps.common.sparse.SparseCodec.encodePull(buffers.getByteBufAllocator(),
                        new io.jvmps.common.sparse.SparsePull("no-such-table", 0, new long[] {7}))),
                Routes.SPARSE_PULL)).block(WAIT))
                .isInstanceOf(ApplicationErrorException.class).hasMessageStartingWith("[");
        assertThat(reachedSpring).as("the data path took dense init, push and pull, sparse push and pull itself")
                .isEmpty();

        assertThatThrownBy(() -> responder.requestResponse(payload(TestTensors.packed(TestTensors.frames(0, 0,
                tensor(a, 1, 1))), Routes.DENSE_PUSH)).block(WAIT))
                .isInstanceOf(ApplicationErrorException.class).hasMessageStartingWith("[WRONG_STEP] ");

        responder.requestResponse(payload(TestTensors.raw(new byte[] {1}), Routes.SERVER_STATUS)).block(WAIT).release();
        responder.requestStream(ByteBufPayload.create("x".getBytes(StandardCharsets.UTF_8))).blockLast(WAIT).release();
        responder.requestChannel(Flux.just(payload(TestTensors.raw(new byte[] {1}), "ps.v1.some-control-route")))
                .blockLast(WAIT).release();
        assertThat(reachedSpring).containsExactly("request-response", "request-stream", "request-channel");
    }
}

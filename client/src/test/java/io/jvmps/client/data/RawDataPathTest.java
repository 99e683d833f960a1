package io.jvmps.client.data;

import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DenseClient}'s raw RSocket requests, seen by a raw server: every request names its route in composite
 * routing metadata (the form a server's responders read), a channel names it on its first payload only, the
 * tensor bytes arrive as the chunk codec wrote them, and a server's application error comes back with its code.
 */
class RawDataPathTest {
    private static final int CHUNK_BYTES = 1 << 10;

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final List<Long> elements = new CopyOnWriteArrayList<>();
    private RawServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void requestsCarryTheirRouteAndTheChunksAsEncoded() {
        // 100 floats fit one 1 KiB payload (a request-response); 1,000 take four (a request-channel)
        ShardMap small = ShardMap.compute(List.of(new ParamSpec("w", new long[] {100})), 1);
        ShardMap big = ShardMap.compute(List.of(new ParamSpec("w", new long[] {1000})), 1);
        start(false);

        client(small).push(3, new INDArray[] {Nd4j.ones(DataType.FLOAT, 100)});
        client(big).push(4, new INDArray[] {Nd4j.ones(DataType.FLOAT, 1000)});

        assertThat(seen).containsExactly("response " + Routes.DENSE_PUSH,
                "channel " + Routes.DENSE_PUSH, "channel next", "channel next", "channel next");
        assertThat(elements.stream().mapToLong(Long::longValue).sum()).isEqualTo(1100);
    }

    @Test
    void aServerErrorKeepsItsCodeAndNamesTheServer() {
        ShardMap small = ShardMap.compute(List.of(new ParamSpec("w", new long[] {100})), 1);
        start(true);

        assertThatThrownBy(() -> client(small).push(3, new INDArray[] {Nd4j.ones(DataType.FLOAT, 100)}))
                .isInstanceOfSatisfying(PsException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.SHAPE_MISMATCH);
                    assertThat(e.detail()).startsWith("server 0 (127.0.0.1:").contains(Routes.DENSE_PUSH)
                            .endsWith("refused by the test");
                });
        assertThatThrownBy(() -> client(small).pull(1, new INDArray[] {Nd4j.zeros(DataType.FLOAT, 100)}))
                .isInstanceOfSatisfying(PsException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.SHAPE_MISMATCH);
                    assertThat(e.detail()).contains(Routes.DENSE_PULL);
                });
        assertThat(seen).containsExactly("response " + Routes.DENSE_PUSH, "stream " + Routes.DENSE_PULL);
    }

    private DenseClient client(ShardMap map) {
        return new DenseClient(server.connections(), map, 0, Duration.ofSeconds(10), CHUNK_BYTES);
    }

    private void start(boolean refuse) {
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload push) {
                seen.add("response " + route(push));
                count(push);
                return refuse ? Mono.error(new ApplicationErrorException("[SHAPE_MISMATCH] refused by the test"))
                        : Mono.just(DefaultPayload.create("{}"));
            }

            @Override
            public Flux<Payload> requestStream(Payload pull) {
                seen.add("stream " + route(pull));
                pull.release();
                return Flux.error(new ApplicationErrorException("[SHAPE_MISMATCH] refused by the test"));
            }

            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
                return Flux.from(payloads).index().doOnNext(indexed -> {
                    Payload payload = indexed.getT2();
                    seen.add(indexed.getT1() == 0 ? "channel " + route(payload)
                            : payload.hasMetadata() ? "channel next with metadata" : "channel next");
                    count(payload);
                }).then(Mono.just(DefaultPayload.create("{}"))).flux();
            }
        };
        server = RawServer.start(SocketAcceptor.with(handler));
    }

    private void count(Payload payload) {
        try {
            for (TensorChunk chunk : TensorChunkCodec.decodeAll(payload.sliceData())) {
                elements.add((long) chunk.count());
                chunk.release();
            }
        } finally {
            payload.release();
        }
    }

    private static String route(Payload payload) {
        if (!payload.hasMetadata()) {
            return "(no metadata)";
        }
        ByteBuf metadata = payload.sliceMetadata();
        for (CompositeMetadata.Entry entry : new CompositeMetadata(metadata, false)) {
            if (WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString().equals(entry.getMimeType())) {
                return new RoutingMetadata(entry.getContent()).iterator().next();
            }
        }
        return "(no route)";
    }
}

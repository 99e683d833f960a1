package io.jvmps.worker.client;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.messaging.rsocket.RSocketStrategies;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PsClient#pushThenPull} against a raw RSocket server: the pull is sent before the push is
 * acknowledged (the server here acknowledges a push only after it has seen the pull, so a client that waited
 * for the acknowledgement first would time out), the pulled values land in the destination, and a refused
 * push fails the call with the server's code at once while the waiting pull is cancelled.
 */
class PushThenPullTest {
    private static final int ELEMENTS = 6;
    private static final Duration DEADLINE = Duration.ofSeconds(5);

    private final CompletableFuture<Void> pullSeen = new CompletableFuture<>();
    private final CountDownLatch pullCancelled = new CountDownLatch(1);
    private CloseableChannel server;
    private ServerConnections connections;

    @AfterEach
    void stop() {
        if (connections != null) {
            connections.close();
        }
        if (server != null) {
            server.dispose();
            server.onClose().block(Duration.ofSeconds(10));
        }
    }

    @Test
    void thePullTravelsBeforeThePushIsAcknowledgedAndOneWaitEndsBoth() {
        ShardMap map = map();
        PsClient client = start(map, false);
        INDArray[] pulled = arrays(map, 0f);
        long before = System.nanoTime();
        long acknowledged = client.pushThenPull(7, arrays(map, 1f), 8, pulled);
        assertThat(acknowledged).isBetween(before, System.nanoTime());
        assertThat(pullSeen).as("the pull reached the server").isDone();
        for (Slice slice : map.slicesOf(0)) {
            assertThat(pulled[slice.paramIndex()].toFloatVector()).containsOnly(valueOf(slice.key()));
        }
    }

    @Test
    void aRefusedPushFailsTheCallAtOnceAndCancelsThePull() throws Exception {
        ShardMap map = map();
        PsClient client = start(map, true);
        long before = System.nanoTime();
        assertThatThrownBy(() -> client.pushThenPull(7, arrays(map, 1f), 8, arrays(map, 0f)))
                .isInstanceOfSatisfying(PsException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.WRONG_STEP);
                    assertThat(e.detail()).startsWith("server 0 (").contains("refused for the test");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - before)).as("failed before the pull's deadline")
                .isLessThan(DEADLINE);
        assertThat(pullCancelled.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                .as("the server saw the waiting pull cancelled").isTrue();
    }

    private PsClient start(ShardMap map, boolean refusePush) {
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload push) {
                push.release();
                if (refusePush) {
                    return Mono.error(new ApplicationErrorException("[WRONG_STEP] refused for the test"));
                }
                // acknowledges only once the pull has arrived: a client that waits for this before pulling hangs
                return Mono.fromFuture(pullSeen).then(Mono.fromSupplier(() -> ByteBufPayload.create(
                        "{\"server\":0,\"step\":7,\"slices\":2,\"elements\":12}".getBytes(StandardCharsets.UTF_8))));
            }

            @Override
            public Flux<Payload> requestStream(Payload pull) {
                pull.release();
                pullSeen.complete(null);
                if (refusePush) {
                    return Flux.<Payload>never().doOnCancel(pullCancelled::countDown);
                }
                return Flux.fromIterable(map.slicesOf(0)).map(PushThenPullTest::answer);
            }
        };
        server = RSocketServer.create(SocketAcceptor.with(handler))
                .bind(TcpServerTransport.create("127.0.0.1", 0)).block(Duration.ofSeconds(10));
        NodeInfo node = new NodeInfo("raw", NodeRole.SERVER, 0, "127.0.0.1", server.address().getPort(), 0,
                NodeState.ALIVE, 0);
        RSocketRequester.Builder builder = RSocketRequester.builder()
                .rsocketStrategies(RSocketStrategies.builder().decoder(new JacksonJsonDecoder()).build());
        connections = new ServerConnections(builder, List.of(node));
        return new PsClient(connections, map, 0, DEADLINE, 1 << 20);
    }

    private static ShardMap map() {
        return ShardMap.compute(List.of(new ParamSpec("w", new long[] {ELEMENTS}),
                new ParamSpec("b", new long[] {ELEMENTS})), 1);
    }

    private static INDArray[] arrays(ShardMap map, float value) {
        return map.params().stream().map(p -> Nd4j.valueArrayOf(p.shape(), value, DataType.FLOAT))
                .toArray(INDArray[]::new);
    }

    private static Payload answer(Slice slice) {
        ByteBuf data = ByteBufAllocator.DEFAULT.buffer(4 * ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++) {
            data.writeFloatLE(valueOf(slice.key()));
        }
        TensorChunk chunk = new TensorChunk(DType.FLOAT32, slice.key(), 8, 0, 0, new long[] {ELEMENTS}, 0, ELEMENTS,
                data);
        try {
            return ByteBufPayload.create(TensorChunkCodec.encode(ByteBufAllocator.DEFAULT, chunk));
        } finally {
            chunk.release();
        }
    }

    private static float valueOf(long key) {
        return (key % 1000) + 0.25f;
    }
}

package io.jvmps.cluster;

import io.jvmps.client.allreduce.RingEndpoint;
import io.jvmps.client.control.ControlClient;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real scheduler and server processes; the test registers two workers with the scheduler and talks to the server
 * as they would. A connection must prove a registered worker's identity (its node id and the token its
 * registration answered): without one, or with another node's token, the server refuses the SETUP. On worker 1's
 * connection, every init, push, pull and join that claims rank 0 or worker 0's node id is refused with
 * UNAUTHENTICATED and changes nothing, while the same requests as rank 1 go through. A worker's AllReduce
 * endpoint (the client library's {@link RingEndpoint}, asking the same scheduler; the stock worker's endpoint
 * installs the same check) likewise refuses a connection without an identity or with a borrowed token and takes
 * a registered worker's. Neither token appears in a log.
 */
class NodeIdentityIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aWorkersConnectionSpeaksForThatWorkerOnly() throws Exception {
        try (LocalCluster cluster = new LocalCluster("node-identity")) {
            NodeProcess scheduler = cluster.startScheduler(1, 2);
            NodeProcess server = cluster.startServer(0, 1, 2, "--ps.consistency.mode=ASYNC",
                    "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=1");
            ClusterSecret secret = ClusterSecret.of(cluster.secret());
            SchedulerClient workers = new SchedulerClient("127.0.0.1", cluster.schedulerPort(), TIMEOUT, secret);
            RegisterResponse w0 = NodeProcess.poll("the scheduler's first answer", Duration.ofSeconds(90), () -> {
                try {
                    return Optional.of(workers.register(new RegisterRequest(NodeRole.WORKER, "127.0.0.1", 0, 0, null)));
                } catch (PsException notUpYet) {
                    return Optional.empty();
                }
            });
            RegisterResponse w1 = workers.register(new RegisterRequest(NodeRole.WORKER, "127.0.0.1", 0, 0, null));
            NodeInfo serverNode = NodeProcess.poll("the server's registration", Duration.ofSeconds(90), () ->
                    workers.cluster().servers().stream().filter(n -> n.state() == NodeState.ALIVE).findFirst());
            ConnectionSettings plain = ConnectionSettings.plain(secret);

            try (ServerConnections anonymous = new ServerConnections(List.of(serverNode), plain)) {
                assertThatThrownBy(() -> anonymous.probe(TIMEOUT)).isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED))
                        .hasMessageContaining("no node identity in the RSocket SETUP metadata");
            }
            try (ServerConnections borrowed = new ServerConnections(List.of(serverNode),
                    plain.identifiedAs(w1.nodeId(), w0.nodeToken()))) {
                assertThatThrownBy(() -> borrowed.probe(TIMEOUT)).isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED))
                        .hasMessageContaining("wrong node token for node '" + w1.nodeId() + "'");
            }

            try (ServerConnections mine = new ServerConnections(List.of(serverNode),
                    plain.identifiedAs(w1.nodeId(), w1.nodeToken()))) {
                assertThat(mine.probe(TIMEOUT)).isEmpty();
                List<ParamSpec> params = List.of(new ParamSpec("w", new long[] {4}));
                ShardMap shards = ShardMap.compute(params, 1);
                ControlClient asWorker1 = new ControlClient(mine, 1, TIMEOUT);
                asWorker1.declareDense(params);
                DenseClient as0 = new DenseClient(mine, shards, 0, TIMEOUT, TensorChunker.DEFAULT_CHUNK_BYTES);
                DenseClient as1 = new DenseClient(mine, shards, 1, TIMEOUT, TensorChunker.DEFAULT_CHUNK_BYTES);
                INDArray[] ones = {Nd4j.ones(DataType.FLOAT, 4)};

                assertRefused(() -> as0.init(ones), "a ps.v1.dense.init request as worker rank 0");
                as1.init(ones);
                assertRefused(() -> new ControlClient(mine, 0, TIMEOUT).join(w0.nodeId(), 0), "as worker rank 0");
                assertRefused(() -> asWorker1.join(w0.nodeId(), 0), "as node " + w0.nodeId());
                assertThat(asWorker1.join(w1.nodeId(), 0)).singleElement()
                        .satisfies(answer -> assertThat(answer.accepted()).as(answer.toString()).isTrue());
                INDArray[] step = {Nd4j.ones(DataType.FLOAT, 4).muli(0.25)};
                assertRefused(() -> as0.push(0, step), "a ps.v1.dense.push request as worker rank 0");
                INDArray[] read = {Nd4j.zeros(DataType.FLOAT, 4)};
                assertRefused(() -> as0.pull(0, read), "a ps.v1.dense.pull request as worker rank 0");
                as1.pull(0, read);
                assertThat(read[0].toFloatVector()).as("the refused push changed nothing").containsOnly(1f);

                assertThatThrownBy(() -> pushHalvesAs(mine, 1, 0)).isInstanceOfSatisfying(
                                io.rsocket.exceptions.ApplicationErrorException.class,
                                e -> assertThat(e.getMessage()).startsWith("[UNAUTHENTICATED]"))
                        .hasMessageContaining("a ps.v1.dense.push request as worker rank 0");
                as1.pull(0, read);
                assertThat(read[0].toFloatVector()).as("a channel with one frame as rank 0 changed nothing")
                        .containsOnly(1f);

                as1.push(0, step);
                as1.pull(1, read);
                assertThat(read[0].toFloatVector()).as("worker 1's own push applied: 1 - 1 * 0.25")
                        .containsOnly(0.75f);
            }
            try (RingEndpoint ring = RingEndpoint.bind("127.0.0.1", 0, secret, workers, TIMEOUT)) {
                assertThat(ringAnswer(ring, plain)).as("an AllReduce connection with the secret only")
                        .startsWith("[UNAUTHENTICATED]").contains("no node identity in the RSocket SETUP metadata");
                assertThat(ringAnswer(ring, plain.identifiedAs(w1.nodeId(), w0.nodeToken())))
                        .as("an AllReduce connection with a borrowed token").startsWith("[UNAUTHENTICATED]")
                        .contains("wrong node token for node '" + w1.nodeId() + "'");
                assertThat(ringAnswer(ring, plain.identifiedAs(w0.nodeId(), w0.nodeToken())))
                        .as("worker 0's own connection reaches the endpoint, which answers an empty frame")
                        .startsWith("[UNKNOWN_KEY] no route ''");
            }
            String logs = server.logText() + scheduler.logText();
            assertThat(server.logText()).contains("Rejected an RSocket connection from")
                    .contains("Refused a request from");
            assertThat(logs).doesNotContain(w0.nodeToken()).doesNotContain(w1.nodeToken()).doesNotContain("\tat ");
        }
    }

    /**
     * Streams a push of step 0 for the whole of {@code w} as one request-channel: its first half as worker
     * {@code firstSender}, its second as {@code secondSender}.
     */
    private static void pushHalvesAs(ServerConnections connections, int firstSender, int secondSender) {
        long key = io.jvmps.common.sharding.SliceKey.of(0, 0);
        java.util.function.BiFunction<Integer, Integer, io.netty.buffer.ByteBuf> half = (sender, offset) -> {
            io.netty.buffer.ByteBuf data = io.netty.buffer.Unpooled.buffer(8).writeFloatLE(0.5f).writeFloatLE(0.5f);
            io.jvmps.common.codec.TensorChunk chunk = new io.jvmps.common.codec.TensorChunk(
                    io.jvmps.common.codec.DType.FLOAT32, key, 0, sender, 7, new long[] {4}, offset, 2, data);
            try {
                return io.jvmps.common.codec.TensorChunkCodec.encode(io.netty.buffer.ByteBufAllocator.DEFAULT, chunk);
            } finally {
                chunk.release();
            }
        };
        reactor.core.publisher.Flux<io.rsocket.Payload> frames = reactor.core.publisher.Flux.just(
                connections.routed().first(io.jvmps.common.protocol.Routes.DENSE_PUSH, half.apply(firstSender, 0)),
                io.jvmps.client.transport.RoutedPayloads.next(half.apply(secondSender, 2)));
        connections.rsocket(0).requestChannel(frames).doOnNext(io.rsocket.Payload::release).blockLast(TIMEOUT);
    }

    /** @return the error message an empty request on a new connection to {@code ring} gets */
    private static String ringAnswer(RingEndpoint ring, ConnectionSettings settings) {
        io.rsocket.core.RSocketClient client = settings.connect("127.0.0.1", ring.port(), "application/octet-stream");
        try {
            client.requestResponse(reactor.core.publisher.Mono.fromSupplier(() ->
                    io.rsocket.util.ByteBufPayload.create(new byte[0]))).block(TIMEOUT);
            return "(answered)";
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage());
        } finally {
            client.dispose();
        }
    }

    private static void assertRefused(ThrowableAssert.ThrowingCallable call, String claim) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.UNAUTHENTICATED))
                .hasMessageContaining("this connection belongs to worker rank 1").hasMessageContaining(claim);
    }
}

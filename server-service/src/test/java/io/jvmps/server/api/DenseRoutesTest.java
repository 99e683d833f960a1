package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.jvmps.server.support.TestTensors;
import io.jvmps.server.support.TestTensors.Pulled;
import io.jvmps.server.support.TestTensors.Tensor;
import io.rsocket.exceptions.ApplicationErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.util.MimeTypeUtils;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RSocket routes end to end over TCP: one worker, sync mode, SGD with learning rate 0.5, so
 * every push is applied at once as {@code p -= 0.5 * g}. Every test uses its own parameter index.
 */
@ServerSpringTest
class DenseRoutesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    io.jvmps.server.store.DenseStore store;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private PushAck send(String route, List<DataBuffer> frames) {
        return TestRequesters.send(requester, route, frames, WAIT);
    }

    private PushAck init(Tensor... tensors) {
        return send(Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensors));
    }

    private PushAck push(long step, Tensor... tensors) {
        return send(Routes.DENSE_PUSH, TestTensors.frames(step, 0, tensors));
    }

    private Map<Long, Pulled> pull(long minVersion, long... keys) {
        return TestRequesters.pull(requester, minVersion, WAIT, keys);
    }

    private static void assertRejected(Runnable call, String code, String detail) {
        assertThatThrownBy(call::run).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[" + code + "] ")
                .hasMessageContaining(detail);
    }

    @Test
    void initPushPullGivesExactValues() {
        long a = SliceKey.of(1, 0);
        long b = SliceKey.of(1, 1);
        assertThat(init(tensor(a, 1, 2, 3, 4), tensor(b, -1))).isEqualTo(new PushAck(0, -1, 2, 5));
        Map<Long, Pulled> fresh = pull(0, b, a);
        assertThat(fresh.keySet()).containsExactly(b, a);
        assertThat(fresh.get(a).values()).containsExactly(1, 2, 3, 4);
        assertThat(fresh.get(a).version()).isZero();

        assertThat(push(0, tensor(a, 0.25f, 0.5f, -2f, 0f), tensor(b, 1f))).isEqualTo(new PushAck(0, 0, 2, 5));
        Map<Long, Pulled> after = pull(1, a, b);
        assertThat(after.get(a).values()).containsExactly(0.875f, 1.75f, 4f, 4f);
        assertThat(after.get(b).values()).containsExactly(-1.5f);
        assertThat(after.get(a).version()).isEqualTo(1);

        // a second init of an existing slice with the same length is accepted and changes nothing
        init(tensor(a, 9, 9, 9, 9));
        assertThat(pull(1, a).get(a).values()).containsExactly(0.875f, 1.75f, 4f, 4f);
    }

    @Test
    void aRetriedPushWithTheSameTagGetsTheOriginalAckAndIsAppliedOnce() {
        long a = SliceKey.of(7, 0);
        init(tensor(a, 1, 1));
        long tag = (5L << 40) | 1;
        PushAck first = send(Routes.DENSE_PUSH, TestTensors.frames(0, 0, tag, tensor(a, 1f, 2f)));
        PushAck retried = send(Routes.DENSE_PUSH, TestTensors.frames(0, 0, tag, tensor(a, 1f, 2f)));
        assertThat(retried).isEqualTo(first);
        assertThat(pull(1, a).get(a).values()).containsExactly(0.5f, 0f);
        assertThat(pull(0, a).get(a).version()).as("applied once").isEqualTo(1);

        send(Routes.DENSE_PUSH, TestTensors.frames(1, 0, tag + 1, tensor(a, 1f, 0f)));
        assertThat(pull(2, a).get(a).values()).containsExactly(0f, 0f);
        assertRejected(() -> send(Routes.DENSE_PUSH, TestTensors.frames(1, 0, tag + 2, tensor(a, 1f, 0f))),
                "WRONG_STEP", "already applied");
    }

    @Test
    void tensorsOfSeveralChunksRoundTrip() {
        long big = SliceKey.of(2, 0);
        int n = 600_000; // 2.4 MB: three 1 MiB chunks each way
        float[] values = new float[n];
        float[] grad = new float[n];
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.001f;
            grad[i] = (i % 7) - 3;
            expected[i] = values[i] - 0.5f * grad[i];
        }
        assertThat(TestTensors.frames(-1, 0, tensor(big, values))).hasSize(3).allSatisfy(DataBufferUtils::release);
        assertThat(init(tensor(big, values)).elements()).isEqualTo(n);
        assertThat(push(0, tensor(big, grad)).elements()).isEqualTo(n);
        Pulled pulled = pull(1, big).get(big);
        assertThat(pulled.chunks()).isEqualTo(3);
        assertThat(Arrays.equals(pulled.values(), expected)).as("pulled values equal p - 0.5 g").isTrue();
    }

    @Test
    void smallSlicesTravelPackedInOnePayloadEachWay() {
        long a = SliceKey.of(13, 0);
        long b = SliceKey.of(13, 1);
        long c = SliceKey.of(13, 2);
        init(tensor(a, 1), tensor(b, 2, 3), tensor(c, 4));
        List<DataBuffer> badPush = new java.util.ArrayList<>(TestTensors.frames(0, 0, tensor(a, 2), tensor(b, 2, 2)));
        badPush.add(TestTensors.raw(new byte[] {1, 2, 3}));
        assertRejected(() -> send(Routes.DENSE_PUSH, List.of(TestTensors.packed(badPush))), "MALFORMED_FRAME",
                "frame 3 of the payload: frame has 3 bytes");

        PushAck ack = send(Routes.DENSE_PUSH,
                List.of(TestTensors.packed(TestTensors.frames(0, 0, tensor(a, 2), tensor(b, 2, 4), tensor(c, 6)))));

        assertThat(ack).isEqualTo(new PushAck(0, 0, 3, 4));
        List<DataBuffer> answer = requester.route(Routes.DENSE_PULL).data(TestTensors.request(1, 0, a, b, c))
                .retrieveFlux(DataBuffer.class).collectList().block(WAIT);
        assertThat(answer).as("three small slices come back in one payload").hasSize(1);
        Map<Long, Pulled> pulled = TestTensors.assemble(answer);
        assertThat(pulled.keySet()).containsExactly(a, b, c);
        assertThat(pulled.get(a).values()).containsExactly(0);
        assertThat(pulled.get(b).values()).containsExactly(1, 1);
        assertThat(pulled.get(c).values()).containsExactly(1);
    }

    @Test
    void aPushOfOnePayloadAlsoTravelsAsARequestResponse() {
        long a = SliceKey.of(14, 0);
        long b = SliceKey.of(14, 1);
        init(tensor(a, 1), tensor(b, 2, 3));
        DataBuffer bad = TestTensors.packed(TestTensors.frames(0, 0, tensor(a, 2), tensor(b, 2, Float.NaN)));
        assertRejected(() -> requester.route(Routes.DENSE_PUSH).data(bad).retrieveMono(PushAck.class).block(WAIT),
                "NON_FINITE", "element 1 is NaN");

        DataBuffer good = TestTensors.packed(TestTensors.frames(0, 0, tensor(a, 2), tensor(b, 2, 4)));
        PushAck ack = requester.route(Routes.DENSE_PUSH).data(good).retrieveMono(PushAck.class).block(WAIT);

        assertThat(ack).isEqualTo(new PushAck(0, 0, 2, 3));
        Map<Long, Pulled> pulled = pull(1, a, b);
        assertThat(pulled.get(a).values()).as("applied once, the rejected push left no trace").containsExactly(0);
        assertThat(pulled.get(b).values()).containsExactly(1, 1);
    }

    @Test
    void badInputIsRejectedWithItsCodeAndChangesNothing() {
        long k = SliceKey.of(3, 0);
        long k2 = SliceKey.of(3, 1);
        init(tensor(k, 1, 2, 3), tensor(k2, 5));

        assertRejected(() -> push(0, tensor(k, 1, 1)), "SHAPE_MISMATCH", "p3/s0 holds 3 elements");
        assertRejected(() -> push(0, tensor(SliceKey.of(3, 9), 1)), "UNKNOWN_KEY", "p3/s9");
        assertRejected(() -> push(0, tensor(k, 1, Float.NaN, 1)), "NON_FINITE", "p3/s0 element 1 is NaN");
        assertRejected(() -> send(Routes.DENSE_PUSH, List.of(TestTensors.raw(new byte[] {1, 2, 3, 4, 5}))),
                "MALFORMED_FRAME", "5 bytes");
        assertRejected(() -> push(1, tensor(k, 1, 1, 1)), "WRONG_STEP", "p3/s0 is at step 0");
        // the first slice is fine, the second is not: nothing of the push may be applied
        assertRejected(() -> push(0, tensor(k2, 4), tensor(k, 1, Float.POSITIVE_INFINITY, 1)), "NON_FINITE",
                "Infinity");
        assertRejected(() -> init(tensor(k, 1, 2)), "SHAPE_MISMATCH", "already holds 3 elements");

        Map<Long, Pulled> unchanged = pull(0, k, k2);
        assertThat(unchanged.get(k).values()).containsExactly(1, 2, 3);
        assertThat(unchanged.get(k2).values()).containsExactly(5);
        assertThat(unchanged.get(k).version()).isZero();
        // and the same step is still open for this worker (nothing was half-accepted)
        push(0, tensor(k2, 4), tensor(k, 2, 2, 2));
        assertThat(pull(1, k).get(k).values()).containsExactly(0, 1, 2);
    }

    @Test
    void oversizePayloadIsRejectedAndTheServerKeepsServing() {
        long k = SliceKey.of(4, 0);
        init(tensor(k, 7, 8));
        DataBuffer huge = TestTensors.raw(new byte[5 << 20]); // above the 4 MiB default cap, below 16 MiB
        assertRejected(() -> send(Routes.DENSE_PUSH, List.of(huge)), "PAYLOAD_TOO_LARGE",
                "ps.transport.max-inbound-payload-bytes");
        assertThat(pull(0, k).get(k).values()).containsExactly(7, 8);

        // fragmented payloads: RSocket reassembles up to 16 MiB, then the same cap applies; above, RSocket refuses
        RSocketRequester fragmenting = builder.setupMetadata("test-cluster-secret-0123456789", org.springframework.util.MimeType.valueOf(io.jvmps.common.security.ClusterSecret.SETUP_MIME_TYPE))
                .dataMimeType(MimeTypeUtils.APPLICATION_JSON)
                .rsocketConnector(c -> c.fragment(1 << 20)).tcp("localhost", port);
        try {
            assertRejected(() -> fragmenting.route(Routes.DENSE_PUSH)
                    .data(Flux.just(TestTensors.raw(new byte[5 << 20])), DataBuffer.class)
                    .retrieveFlux(PushAck.class).blockLast(WAIT), "PAYLOAD_TOO_LARGE", "5242880 bytes");
            assertThatThrownBy(() -> fragmenting.route(Routes.DENSE_PUSH)
                    .data(Flux.just(TestTensors.raw(new byte[20 << 20])), DataBuffer.class)
                    .retrieveFlux(PushAck.class).blockLast(WAIT))
                    .hasMessageContaining("16777215");
        } finally {
            fragmenting.dispose();
        }
        push(0, tensor(k, 2, 2));
        assertThat(pull(1, k).get(k).values()).containsExactly(6, 7);
    }

    @Test
    void pullOfAMalformedRequestIsMalformedFrame() {
        assertRejected(() -> requester.route(Routes.DENSE_PULL).data(TestTensors.raw(new byte[30]))
                .retrieveFlux(DataBuffer.class).blockLast(WAIT), "MALFORMED_FRAME", "slice request");
    }

    @Test
    void pullOfAFutureVersionTimesOutNamingTheMissingWorker() {
        long k = SliceKey.of(5, 0);
        init(tensor(k, 1));
        assertRejected(() -> pull(1, k), "TIMEOUT", "p5/s0 at version 0, step 0 waits for worker ranks [0]");
    }

    @Test
    void aPullOfAnUnknownOrRepeatedKeyOrOfNoWorkerFailsAtOnceAndLeavesNothingBehind() {
        long k = SliceKey.of(8, 0);
        init(tensor(k, 1));
        int waiting = store.waitingKeys();
        long started = System.nanoTime();
        assertRejected(() -> pull(0, SliceKey.of(8, 5)), "UNKNOWN_KEY", "is not held by this server");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("at once, not after the pull deadline")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(store.waitingKeys()).as("no entry left for the unknown key").isEqualTo(waiting);
        assertRejected(() -> pull(0, k, k), "INVALID_ARGUMENT", "names slice p8/s0 twice");
        assertRejected(() -> requester.route(Routes.DENSE_PULL).data(TestTensors.request(0, 99, k))
                .retrieveFlux(DataBuffer.class).blockLast(WAIT), "INVALID_ARGUMENT", "sender rank 99 is outside");
        assertThat(pull(0, k).get(k).values()).as("the server still serves").containsExactly(1);
    }

    @Test
    void aCancelledPullFreesItsWaiterAtOnce() {
        long k = SliceKey.of(12, 0);
        init(tensor(k, 1));
        reactor.core.Disposable waiting = requester.route(Routes.DENSE_PULL).data(TestTensors.request(3, 0, k))
                .retrieveFlux(DataBuffer.class).subscribe(DataBufferUtils::release, e -> { });
        awaitWaitingPulls(1);
        waiting.dispose(); // the requester sends CANCEL
        awaitWaitingPulls(0);
    }

    private void awaitWaitingPulls(int expected) { // well inside the 5 s pull deadline
        io.jvmps.server.support.Await.until(() -> store.waitingPulls() == expected, Duration.ofSeconds(3),
                () -> "pulls waiting on the server: " + expected + " (are " + store.waitingPulls() + ")");
    }

    @Test
    void aPushStreamThatStallsIsCancelledAfterTheIdleTimeoutAndChangesNothing() {
        long k = SliceKey.of(9, 0);
        init(tensor(k, 4));
        Flux<DataBuffer> stalled = Flux.concat(Flux.fromIterable(TestTensors.frames(0, 0, tensor(k, 1f))), Flux.never());
        long started = System.nanoTime();
        assertRejected(() -> requester.route(Routes.DENSE_PUSH).data(stalled, DataBuffer.class)
                        .retrieveFlux(PushAck.class).blockLast(WAIT), "TIMEOUT",
                "sent no frame for PT2S (ps.server.stream-idle-timeout) after 1 complete tensor(s)");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(pull(0, k).get(k).values()).as("nothing applied").containsExactly(4);
        assertThat(pull(0, k).get(k).version()).isZero();
    }

    @Test
    void anEmptyStreamAnInitWithAStepOrASliceOfAnotherShapeIsRefusedAndChangesNothing() {
        long k = SliceKey.of(10, 0);
        init(tensor(k, 1, 2, 3, 4));
        assertRejected(() -> send(Routes.DENSE_PUSH, List.of()), "INVALID_ARGUMENT", "");
        assertRejected(() -> send(Routes.DENSE_INIT, List.of()), "INVALID_ARGUMENT", "");
        assertRejected(() -> send(Routes.DENSE_INIT, TestTensors.frames(3, 0, tensor(SliceKey.of(10, 1), 5))),
                "INVALID_ARGUMENT", "init frames carry step -1, got step 3");
        assertRejected(() -> send(Routes.DENSE_PUSH, TestTensors.shaped(0, 0, 0, new long[] {2, 2},
                tensor(k, 1, 1, 1, 1))), "SHAPE_MISMATCH", "shape [2, 2]; dense slices are sent 1-D");
        assertThat(pull(0, k).get(k).values()).containsExactly(1, 2, 3, 4);
        assertThat(pull(0, k).get(k).version()).isZero();
        assertRejected(() -> pull(0, SliceKey.of(10, 1)), "UNKNOWN_KEY", "is not held by this server");
    }

    @Test
    void unknownRouteIsAClearError() {
        assertThatThrownBy(() -> requester.route("ps.v1.nope").data("x").retrieveMono(String.class).block(WAIT))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[INVALID_ARGUMENT] ")
                .hasMessageContaining("no REQUEST_RESPONSE route 'ps.v1.nope'");
        assertThatThrownBy(() -> requester.route(Routes.DENSE_PULL).data("x").retrieveMono(String.class).block(WAIT))
                .as("a known route with the wrong interaction").isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[INVALID_ARGUMENT] ");
    }

    @Test
    void statusRouteAnswersJson() {
        long k = SliceKey.of(6, 0);
        init(tensor(k, 1, 2));
        ServerStatus status = requester.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT);
        assertThat(status.rank()).isZero();
        assertThat(status.consistency()).isEqualTo("SYNC");
        assertThat(status.optimizer()).startsWith("SGD(lr=0.5");
        assertThat(status.slices()).isPositive();
        assertThat(status.expectedWorkers()).isEqualTo(1);
    }

    @Test
    void aJoinOutsideTheJobOrWithoutANodeIdIsRefusedByName() {
        init(tensor(SliceKey.of(40, 0), 1f));
        assertRejected(() -> requester.route(Routes.JOIN).data(new io.jvmps.common.protocol.JoinRequest(3, "w", 0))
                .retrieveMono(io.jvmps.common.protocol.JoinAnswer.class).block(WAIT), "INVALID_ARGUMENT",
                "sender rank 3 is outside the job's workers [0, 1)");
        assertRejected(() -> requester.route(Routes.JOIN).data(new io.jvmps.common.protocol.JoinRequest(0, " ", 0))
                .retrieveMono(io.jvmps.common.protocol.JoinAnswer.class).block(WAIT), "INVALID_ARGUMENT",
                "needs rank, nodeId and step");
    }
}

package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sparse.SparseCodec;
import io.jvmps.common.sparse.SparsePull;
import io.jvmps.common.sparse.SparsePush;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.SparseTableStatus;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rsocket.exceptions.ApplicationErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.messaging.rsocket.RSocketRequester;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The sparse routes end to end over TCP on one server (rank 0 of 1, SGD with learning rate 0.5): declare,
 * pull of untouched and touched rows, gradient and delta pushes, and the errors. Each test uses its own table.
 */
@ServerSpringTest
class SparseRoutesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final NettyDataBufferFactory factory = new NettyDataBufferFactory(ByteBufAllocator.DEFAULT);

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    io.micrometer.core.instrument.MeterRegistry registry;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private SparseTableStatus declare(String name, int dim) {
        return requester.route(Routes.SPARSE_DECLARE).data(new SparseTableSpec(name, dim, 11, 0.1f, null))
                .retrieveMono(SparseTableStatus.class).block(WAIT);
    }

    private float[] pull(String table, int dim, long... ids) {
        DataBuffer answer = requester.route(Routes.SPARSE_PULL)
                .data(factory.wrap(SparseCodec.encodePull(ByteBufAllocator.DEFAULT, new SparsePull(table, 0, ids))))
                .retrieveMono(DataBuffer.class).block(WAIT);
        try {
            return SparseCodec.decodeRows(((NettyDataBuffer) answer).getNativeBuffer(), dim, ids.length);
        } finally {
            DataBufferUtils.release(answer);
        }
    }

    private PushAck push(String table, UpdateKind kind, int dim, long[] ids, float[] values) {
        return send(SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush(table, 0, 5, kind, dim, ids, values)));
    }

    private PushAck send(ByteBuf frame) {
        return requester.route(Routes.SPARSE_PUSH).data(factory.wrap(frame)).retrieveMono(PushAck.class).block(WAIT);
    }

    private static void assertRejected(Runnable call, String code, String detail) {
        assertThatThrownBy(call::run).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[" + code + "] ").hasMessageContaining(detail);
    }

    @Test
    void gradientsAndDeltasUpdateOnlyTheRowsTheyName() {
        SparseTableStatus declared = declare("routes", 3);
        assertThat(declared.dim()).isEqualTo(3);
        assertThat(declared.optimizer()).startsWith("SGD");
        assertThat(declare("routes", 3).name()).isEqualTo("routes");

        float[] before = pull("routes", 3, 1, 2, -9);
        assertThat(pull("routes", 3, 1, 2, -9)).containsExactly(before);
        for (float v : before) {
            assertThat(v).isBetween(-0.1f, 0.1f).isNotZero();
        }
        PushAck ack = push("routes", UpdateKind.GRADIENT, 3, new long[] {1, -9, 1},
                new float[] {1, 2, 3, 4, 5, 6, 1, 1, 1});
        assertThat(ack.step()).isEqualTo(5);
        assertThat(ack.slices()).isEqualTo(2);
        assertThat(ack.elements()).isEqualTo(6);
        push("routes", UpdateKind.DELTA, 3, new long[] {2}, new float[] {0.5f, 0.5f, 0.5f});

        float[] after = pull("routes", 3, 1, 2, -9);
        float[] expected = {before[0] - 1f, before[1] - 1.5f, before[2] - 2f,
                before[3] + 0.5f, before[4] + 0.5f, before[5] + 0.5f,
                before[6] - 2f, before[7] - 2.5f, before[8] - 3f};
        for (int i = 0; i < expected.length; i++) {
            assertThat(after[i]).as("element %d", i).isCloseTo(expected[i], within(1e-6f));
        }

        ServerStatus status = requester.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT);
        assertThat(status.sparseTables()).anySatisfy(t -> {
            assertThat(t.name()).isEqualTo("routes");
            assertThat(t.rows()).isEqualTo(3);
            assertThat(t.pushes()).isEqualTo(2);
        });
        assertThat(status.sparseBytes()).isPositive();
    }

    @Test
    void aTableDeclaredWithALifecycleAdmitsEvictsAndCountsThroughTheRoutesAndTheMetrics() {
        String json = "{\"name\":\"life\",\"dim\":2,\"seed\":1,\"initScale\":0.1,"
                + "\"lifecycle\":{\"admitAfter\":2,\"evictAfterSteps\":4}}";
        SparseTableStatus declared = requester.route(Routes.SPARSE_DECLARE)
                .data(json).retrieveMono(SparseTableStatus.class).block(WAIT);
        assertThat(declared.rows()).isZero();
        assertRejected(() -> requester.route(Routes.SPARSE_DECLARE).data(new SparseTableSpec("life", 2, 1, 0.1f, null))
                .retrieveMono(SparseTableStatus.class).block(WAIT), "INVALID_ARGUMENT", "admitAfter=2");
        float[] fresh = pull("life", 2, 9);
        PushAck first = stepPush("life", 1, new long[] {9}, new float[] {1, 1});
        assertThat(first.slices()).as("not admitted yet: no row changed").isZero();
        assertThat(pull("life", 2, 9)).containsExactly(fresh);
        stepPush("life", 2, new long[] {9}, new float[] {1, 1}); // admitted on its second push
        assertThat(pull("life", 2, 9)).isNotEqualTo(fresh);
        stepPush("life", 3, new long[] {8}, new float[] {1, 1});
        stepPush("life", 4, new long[] {8}, new float[] {1, 1}); // 8 admitted at 4
        stepPush("life", 8, new long[] {8}, new float[] {1, 1}); // 9, last touched at 2, is idle for 6 > 4 steps
        assertThat(pull("life", 2, 9)).containsExactly(fresh);
        ServerStatus status = requester.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT);
        assertThat(status.sparseTables()).anySatisfy(t -> {
            assertThat(t.name()).isEqualTo("life");
            assertThat(t.rows()).isEqualTo(1);
            assertThat(t.admitted()).isEqualTo(2);
            assertThat(t.evicted()).isEqualTo(1);
            assertThat(t.dropped()).isEqualTo(2);
        });
        assertThat(registry.get("ps.server.sparse.rows.evicted").tag("table", "life").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("ps.server.sparse.gradients.dropped").tag("table", "life").functionCounter().count())
                .isEqualTo(2.0);
        assertRejected(() -> requester.route(Routes.SPARSE_DECLARE).data(json.replace("\"admitAfter\":2",
                        "\"admitAfter\":0")).retrieveMono(SparseTableStatus.class).block(WAIT), "INVALID_ARGUMENT",
                "admitAfter");
    }

    private PushAck stepPush(String table, long step, long[] ids, float[] values) {
        return send(SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush(table, 0, step,
                UpdateKind.GRADIENT, 2, ids, values)));
    }

    @Test
    void badRequestsGetACodeAndChangeNothing() {
        declare("strict", 2);
        float[] before = pull("strict", 2, 7);
        assertRejected(() -> pull("nope", 2, 1), "UNKNOWN_KEY", "no sparse table 'nope'");
        assertRejected(() -> pull("strict", 2, 7, 7), "INVALID_ARGUMENT", "id 7 twice");
        assertRejected(() -> requester.route(Routes.SPARSE_PULL).data(factory.wrap(SparseCodec.encodePull(
                        ByteBufAllocator.DEFAULT, new SparsePull("strict", 3, new long[] {7}))))
                .retrieveMono(DataBuffer.class).block(WAIT), "INVALID_ARGUMENT", "sender rank 3");
        assertRejected(() -> send(SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("strict", -1, 5,
                UpdateKind.GRADIENT, 2, new long[] {7}, new float[] {1, 1}))), "INVALID_ARGUMENT", "sender rank -1");
        assertRejected(() -> push("strict", UpdateKind.GRADIENT, 3, new long[] {7}, new float[3]),
                "SHAPE_MISMATCH", "carries dim 3");
        assertRejected(() -> push("strict", UpdateKind.GRADIENT, 2, new long[] {7}, new float[] {1, Float.NaN}),
                "NON_FINITE", "id 7");
        assertRejected(() -> send(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9})),
                "MALFORMED_FRAME", "bad magic");
        assertRejected(() -> requester.route(Routes.SPARSE_DECLARE)
                .data("{\"name\":\"x y\",\"dim\":4,\"seed\":1,\"initScale\":0.1}")
                .retrieveMono(SparseTableStatus.class).block(WAIT), "INVALID_ARGUMENT", "sparse table name");
        assertRejected(() -> requester.route(Routes.SPARSE_DECLARE).data("{\"name\":\"x\",\"dim\":4}")
                .retrieveMono(SparseTableStatus.class).block(WAIT), "INVALID_ARGUMENT", "request body could not be read");
        assertThat(pull("strict", 2, 7)).containsExactly(before);
    }
    @Test
    void aPayloadOfSeveralTablesIsAnsweredInOrderAndCheckedWholeBeforeAnyIsApplied() {
        declare("multi.a", 2);
        declare("multi.b", 1);
        float[] a = pull("multi.a", 2, 3, 4);
        float[] b = pull("multi.b", 1, 4);
        // two pulls in one payload: two rows frames back, in the same order
        ByteBuf pulls = Unpooled.wrappedBuffer(
                SparseCodec.encodePull(ByteBufAllocator.DEFAULT, new SparsePull("multi.a", 0, new long[] {3, 4})),
                SparseCodec.encodePull(ByteBufAllocator.DEFAULT, new SparsePull("multi.b", 0, new long[] {4})));
        DataBuffer answer = requester.route(Routes.SPARSE_PULL).data(factory.wrap(pulls))
                .retrieveMono(DataBuffer.class).block(WAIT);
        try {
            ByteBuf rest = ((NettyDataBuffer) answer).getNativeBuffer();
            assertThat(SparseCodec.decodeRows(SparseCodec.nextFrame(rest), 2, 2)).containsExactly(a);
            assertThat(SparseCodec.decodeRows(SparseCodec.nextFrame(rest), 1, 1)).containsExactly(b);
            assertThat(rest.isReadable()).isFalse();
        } finally {
            DataBufferUtils.release(answer);
        }
        // a push whose second table's part is bad applies neither
        ByteBuf bad = Unpooled.wrappedBuffer(
                SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("multi.a", 0, 5, UpdateKind.DELTA, 2,
                        new long[] {3}, new float[] {1, 1})),
                SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("multi.b", 0, 5, UpdateKind.DELTA, 1,
                        new long[] {4}, new float[] {Float.NaN})));
        assertRejected(() -> send(bad), "NON_FINITE", "'multi.b'");
        assertThat(pull("multi.a", 2, 3, 4)).containsExactly(a);
        // both tables in one payload: both applied, one acknowledgement counting every row
        ByteBuf good = Unpooled.wrappedBuffer(
                SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("multi.a", 0, 5, UpdateKind.DELTA, 2,
                        new long[] {3}, new float[] {1, 1})),
                SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("multi.b", 0, 5, UpdateKind.DELTA, 1,
                        new long[] {4}, new float[] {2})));
        PushAck ack = send(good);
        assertThat(ack.slices()).isEqualTo(2);
        assertThat(ack.elements()).isEqualTo(3);
        assertThat(pull("multi.a", 2, 3, 4)).containsExactly(a[0] + 1, a[1] + 1, a[2], a[3]);
        assertThat(pull("multi.b", 1, 4)).containsExactly(b[0] + 2);
        // a second frame cut short is a malformed payload, and nothing is applied
        ByteBuf cut = Unpooled.wrappedBuffer(
                SparseCodec.encodePush(ByteBufAllocator.DEFAULT, new SparsePush("multi.a", 0, 5, UpdateKind.DELTA, 2,
                        new long[] {3}, new float[] {1, 1})),
                Unpooled.wrappedBuffer(new byte[] {0x50, 0x53, 0x53, 0x50, 1, 2, 0}));
        assertRejected(() -> send(cut), "MALFORMED_FRAME", "truncated");
        assertThat(pull("multi.a", 2, 3)).containsExactly(a[0] + 1, a[1] + 1);
    }
}

package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseStore;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.jvmps.server.support.TestTensors;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.messaging.rsocket.RSocketRequester;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every header field of a {@code TensorChunk} frame, one at a time, set to what a broken or hostile client might
 * send (a wrong magic, version or dtype, a rank, count, offset or dimension out of range, a key the server does
 * not hold, a step or sender the job does not have, data that is short or long), in a push (one payload, as a
 * request-response) and in an init (a channel): each is answered {@code [CODE] message}, the slices hold the
 * values they had and no slice is created, and the server logs no stack trace.
 */
@ServerSpringTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class HostileFramesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long HELD = SliceKey.of(81, 0);
    private static final long ABSENT = SliceKey.of(82, 0);
    private static final float[] VALUES = {1, 2, 3, 4};

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    DenseStore store;
    RSocketRequester requester;

    /** The header of one frame, field by field; {@link #encode()} writes it as the codec does, little-endian. */
    private static final class Header {
        int magic = 0x43545350;
        int version = 1;
        int dtype = 1;
        int rank = 1;
        long key = HELD;
        long step = 0;
        int sender = 0;
        int count = 4;
        long offset = 0;
        long tag = 0;
        long[] shape = {4};
        int dataBytes = 16;

        ByteBuf encode() {
            ByteBuf out = Unpooled.buffer();
            out.writeIntLE(magic).writeByte(version).writeByte(dtype).writeShortLE(rank).writeLongLE(key)
                    .writeLongLE(step).writeIntLE(sender).writeIntLE(count).writeLongLE(offset).writeLongLE(tag);
            for (long d : shape) {
                out.writeLongLE(d);
            }
            for (int i = 0; i < dataBytes; i++) {
                out.writeByte(i % 4 == 3 ? 0x3f : 0); // 0.5f in every full float
            }
            return out;
        }
    }

    @BeforeAll
    void connectAndHoldOneSlice() {
        requester = TestRequesters.connect(builder, port);
        requester.route(Routes.DENSE_INIT).data(Flux.fromIterable(TestTensors.frames(-1, 0, tensor(HELD, VALUES))),
                DataBuffer.class).retrieveFlux(PushAck.class).blockLast(WAIT);
    }

    @AfterAll
    void close() {
        requester.dispose();
    }

    /** @return (field, value, change) for every header field and its classes of bad value */
    Stream<Object[]> hostile() {
        List<Object[]> all = new ArrayList<>();
        add(all, "magic", "another magic", h -> h.magic = 0x11223344);
        add(all, "version", "2", h -> h.version = 2);
        add(all, "dtype", "0 (none)", h -> h.dtype = 0);
        add(all, "dtype", "6 (unknown)", h -> h.dtype = 6);
        add(all, "dtype", "FLOAT64", h -> {
            h.dtype = 2;
            h.dataBytes = 32;
        });
        add(all, "rank", "9", h -> h.rank = 9);
        add(all, "rank", "65535", h -> h.rank = 0xffff);
        add(all, "rank", "2 (shape [2, 2])", h -> {
            h.rank = 2;
            h.shape = new long[] {2, 2};
        });
        // an init creates the slices it names: a key not held is hostile only in a push
        all.add(new Object[] {"key", "a slice not held", (Consumer<Header>) h -> h.key = ABSENT, Routes.DENSE_PUSH});
        all.add(new Object[] {"key", "-1", (Consumer<Header>) h -> h.key = -1, Routes.DENSE_PUSH});
        add(all, "step", "-5", h -> h.step = -5);
        add(all, "step", "Long.MAX_VALUE", h -> h.step = Long.MAX_VALUE);
        add(all, "sender", "-1", h -> h.sender = -1);
        add(all, "sender", "7 (the job has one worker)", h -> h.sender = 7);
        add(all, "count", "-1", h -> h.count = -1);
        add(all, "count", "5 (more than the shape)", h -> {
            h.count = 5;
            h.dataBytes = 20;
        });
        add(all, "count", "Integer.MAX_VALUE", h -> h.count = Integer.MAX_VALUE);
        add(all, "offset", "-1", h -> h.offset = -1);
        add(all, "offset", "2 (past the end with count 4)", h -> h.offset = 2);
        add(all, "offset", "Long.MAX_VALUE", h -> h.offset = Long.MAX_VALUE);
        add(all, "shape", "[-4]", h -> h.shape = new long[] {-4});
        add(all, "shape", "[5] (not the slice's length)", h -> h.shape = new long[] {5});
        add(all, "shape", "[Long.MAX_VALUE]", h -> h.shape = new long[] {Long.MAX_VALUE});
        add(all, "data", "3 bytes short", h -> h.dataBytes = 13);
        add(all, "data", "4 bytes more", h -> h.dataBytes = 20);
        add(all, "header", "cut after 20 bytes", h -> {
            h.shape = new long[0];
            h.dataBytes = -1;
        });
        return all.stream();
    }

    private static void add(List<Object[]> all, String field, String value, Consumer<Header> change) {
        all.add(new Object[] {field, value, change, Routes.DENSE_PUSH});
        all.add(new Object[] {field, value, change, Routes.DENSE_INIT});
    }

    @ParameterizedTest(name = "{3} {0} = {1}")
    @MethodSource("hostile")
    void aHostileHeaderFieldGetsACodedErrorAndChangesNothing(String field, String value, Consumer<Header> change,
                                                             String route, CapturedOutput output) {
        Header header = new Header();
        header.step = route.equals(Routes.DENSE_INIT) ? -1 : store.require(HELD).version();
        change.accept(header);
        ByteBuf frame = header.encode();
        if (header.dataBytes < 0) {
            frame = frame.slice(0, 20);
        }
        Payload payload = ByteBufPayload.create(frame, TestRequesters.routed(route));
        var client = requester.rsocketClient();
        long version = store.require(HELD).version();
        if (route.equals(Routes.DENSE_PUSH)) {
            assertThatThrownBy(() -> client.requestResponse(Mono.just(payload)).block(WAIT))
                    .as(field + " = " + value).hasMessageMatching("(?s)\\[[A-Z_]+] .+");
        } else {
            assertThatThrownBy(() -> client.requestChannel(Flux.just(payload)).blockLast(WAIT))
                    .as(field + " = " + value).hasMessageMatching("(?s)\\[[A-Z_]+] .+");
        }
        assertThat(TestRequesters.pull(requester, 0, WAIT, HELD).get(HELD).values()).as("the held slice is unchanged")
                .containsExactly(VALUES);
        assertThat(store.require(HELD).version()).isEqualTo(version);
        assertThat(store.get(ABSENT)).as("nothing created").isNull();
        assertThat(output.getAll()).doesNotContain("\tat ").doesNotContain(" ERROR ");
    }
}

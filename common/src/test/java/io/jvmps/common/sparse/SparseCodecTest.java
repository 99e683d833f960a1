package io.jvmps.common.sparse;

import io.jvmps.common.codec.LeakTrackingAllocator;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SparseCodecTest {
    private final LeakTrackingAllocator alloc = LeakTrackingAllocator.pooledDirect();

    @AfterEach
    void everyBufferReleased() {
        alloc.assertAllReleased();
    }

    private <T> T roundTrip(ByteBuf frame, Function<ByteBuf, T> decode) {
        try {
            return decode.apply(frame);
        } finally {
            frame.release();
        }
    }

    @Test
    void pullRoundTrips() {
        long[] ids = {Long.MIN_VALUE, -1, 0, 42, Long.MAX_VALUE};
        SparsePull back = roundTrip(SparseCodec.encodePull(alloc, new SparsePull("user.emb-1", 3, ids)),
                SparseCodec::decodePull);
        assertThat(back.table()).isEqualTo("user.emb-1");
        assertThat(back.sender()).isEqualTo(3);
        assertThat(back.ids()).containsExactly(ids);
        assertThat(roundTrip(SparseCodec.encodePull(alloc, new SparsePull("e", 0, new long[0])),
                SparseCodec::decodePull).ids()).isEmpty();
    }

    @Test
    void pushRoundTrips() {
        float[] values = {1.5f, -0f, Float.MIN_VALUE, -3e38f, 7, 8};
        SparsePush back = roundTrip(SparseCodec.encodePush(alloc,
                new SparsePush("t", 1, Long.MAX_VALUE, UpdateKind.DELTA, 2, new long[] {5, 5, 9}, values)),
                SparseCodec::decodePush);
        assertThat(back.kind()).isEqualTo(UpdateKind.DELTA);
        assertThat(back.step()).isEqualTo(Long.MAX_VALUE);
        assertThat(back.dim()).isEqualTo(2);
        assertThat(back.ids()).containsExactly(5, 5, 9);
        assertThat(back.values()).containsExactly(values);
    }

    @Test
    void rowsRoundTripAndMustHaveTheAskedShape() {
        float[] values = {1, 2, 3, 4, 5, 6};
        float[] back = roundTrip(SparseCodec.encodeRows(alloc, 3, values), f -> SparseCodec.decodeRows(f, 3, 2));
        assertThat(back).containsExactly(values);
        assertThatThrownBy(() -> roundTrip(SparseCodec.encodeRows(alloc, 3, values), f -> SparseCodec.decodeRows(f, 2, 3)))
                .hasMessageContaining("[MALFORMED_FRAME]").hasMessageContaining("2 rows of dim 3");
    }

    private void assertMalformed(Consumer<ByteBuf> edit, String message) {
        ByteBuf frame = SparseCodec.encodePush(alloc,
                new SparsePush("t", 1, 2, UpdateKind.GRADIENT, 2, new long[] {5, 6}, new float[] {1, 2, 3, 4}));
        try {
            edit.accept(frame);
            assertThatThrownBy(() -> SparseCodec.decodePush(frame)).isInstanceOf(PsException.class)
                    .hasMessageContaining("[MALFORMED_FRAME]").hasMessageContaining(message);
        } finally {
            frame.release();
        }
    }

    @Test
    void malformedFramesAreRejectedBeforeAnythingIsAllocated() {
        int nameEnd = 8 + 2 + 1;
        assertMalformed(f -> f.setIntLE(0, 0x12345678), "bad magic");
        assertMalformed(f -> f.setByte(4, 9), "unsupported version 9");
        assertMalformed(f -> f.setByte(5, 1), "op 1 where 2 was expected");
        assertMalformed(f -> f.setShortLE(8, 0), "table name of 0 bytes");
        assertMalformed(f -> f.setByte(10, 0xFF), "not UTF-8");
        assertMalformed(f -> f.setByte(nameEnd + 12, 7), "update kind 7");
        assertMalformed(f -> f.setIntLE(nameEnd + 13, 0), "dim 0");
        assertMalformed(f -> f.setIntLE(nameEnd + 17, -1), "row count -1");
        // a header claiming a million rows in a few bytes is refused without allocating them
        assertMalformed(f -> f.setIntLE(nameEnd + 17, 1 << 20), "truncated");
        assertMalformed(f -> f.writerIndex(f.writerIndex() - 1), "truncated");
        assertMalformed(f -> f.writeByte(0), "1 bytes after the last row");
        assertMalformed(f -> f.writerIndex(3), "truncated");
    }
    @Test
    void framesBackToBackAreCutApartInOrderAndABrokenOneIsNamed() {
        ByteBuf payload = alloc.buffer();
        ByteBuf one = SparseCodec.encodePull(alloc, new SparsePull("a", 0, new long[] {1, 2}));
        ByteBuf two = SparseCodec.encodePush(alloc, new SparsePush("bb", 0, 3, UpdateKind.DELTA, 2, new long[] {9},
                new float[] {4, 5}));
        ByteBuf three = SparseCodec.encodeRows(alloc, 3, new float[] {1, 2, 3});
        try {
            payload.writeBytes(one).writeBytes(two).writeBytes(three);
            ByteBuf rest = payload.slice();
            assertThat(SparseCodec.decodePull(SparseCodec.nextFrame(rest)).ids()).containsExactly(1, 2);
            assertThat(SparseCodec.decodePush(SparseCodec.nextFrame(rest)).values()).containsExactly(4, 5);
            assertThat(SparseCodec.decodeRows(SparseCodec.nextFrame(rest), 3, 1)).containsExactly(1, 2, 3);
            assertThat(rest.isReadable()).isFalse();

            ByteBuf pulls = payload.slice(0, one.writerIndex());
            assertThat(SparseCodec.decodeAll(pulls, SparseCodec::decodePull)).hasSize(1);
            assertThatThrownBy(() -> SparseCodec.decodeAll(payload, SparseCodec::decodePull))
                    .hasMessageContaining("[MALFORMED_FRAME]").hasMessageContaining("op 2 where 1 was expected");
            ByteBuf cut = payload.slice(0, payload.writerIndex() - 1);
            assertThatThrownBy(() -> {
                ByteBuf r = cut.slice();
                while (r.isReadable()) {
                    SparseCodec.nextFrame(r);
                }
            }).hasMessageContaining("[MALFORMED_FRAME]").hasMessageContaining("truncated");
            assertThatThrownBy(() -> SparseCodec.decodeAll(payload.slice(0, 0), SparseCodec::decodePull))
                    .hasMessageContaining("empty payload");
        } finally {
            payload.release();
            one.release();
            two.release();
            three.release();
        }
    }
}

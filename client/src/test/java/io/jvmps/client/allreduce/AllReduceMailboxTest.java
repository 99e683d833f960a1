package io.jvmps.client.allreduce;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The inbound mailbox: reassembly in any order, checks, deadlines. */
class AllReduceMailboxTest {
    private static final RingKey KEY = new RingKey(3, RingPhase.ALL_GATHER, 1);

    @Test
    void chunksInAnyOrderMakeOneSegment() {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        deliver(mailbox, chunk(2, KEY, 4, 2, 3f, 4f));
        assertThat(mailbox.pending()).isEqualTo(1);
        deliver(mailbox, chunk(2, KEY, 4, 0, 1f, 2f));
        assertThat(mailbox.take(KEY, 2, 4, Duration.ofSeconds(1), "worker 0")).containsExactly(1f, 2f, 3f, 4f);
        assertThat(mailbox.pending()).isZero();
    }

    @Test
    void aTagWithoutPhaseIsMalformed() {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        TensorChunk bad = new TensorChunk(DType.FLOAT32, 0, 1, 0, 7L << 32, new long[] {1}, 0, 1, floats(1f));
        assertThatThrownBy(() -> deliver(mailbox, bad)).isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
    }

    @Test
    void tooManyElementsAreADuplicate() {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        deliver(mailbox, chunk(0, KEY, 3, 0, 1f, 2f));
        assertThatThrownBy(() -> deliver(mailbox, chunk(0, KEY, 3, 0, 1f, 2f))).isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.DUPLICATE_PUSH));
    }

    @Test
    void aSegmentOfAnotherShapeIsRejectedOnTake() {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        deliver(mailbox, chunk(1, KEY, 2, 0, 1f, 2f));
        assertThatThrownBy(() -> mailbox.take(KEY, 1, 3, Duration.ofSeconds(1), "worker 0"))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.SHAPE_MISMATCH))
                .hasMessageContaining("worker 0");
    }

    @Test
    void waitingTooLongIsATimeoutNamingThePeer() {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        assertThatThrownBy(() -> mailbox.take(KEY, 0, 1, Duration.ofMillis(50), "worker 2 (10.0.0.3:7000)"))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("worker 2 (10.0.0.3:7000)").hasMessageContaining("step 3 ALL_GATHER round 1");
        assertThat(mailbox.pending()).isZero();
    }

    private static void deliver(AllReduceMailbox mailbox, TensorChunk chunk) {
        try {
            mailbox.deliver(chunk);
        } finally {
            chunk.release();
        }
        assertThat(chunk.refCnt()).isZero();
    }

    private static TensorChunk chunk(int segment, RingKey key, int total, int offset, float... values) {
        return new TensorChunk(DType.FLOAT32, segment, key.step(), 0, key.tag(), new long[] {total}, offset,
                values.length, floats(values));
    }

    private static ByteBuf floats(float... values) {
        ByteBuf buf = Unpooled.buffer(values.length * 4);
        for (float v : values) {
            buf.writeFloatLE(v);
        }
        return buf;
    }
}

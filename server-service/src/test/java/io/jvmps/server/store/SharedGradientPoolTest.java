package io.jvmps.server.store;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.server.config.PushApply;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-slice application's buffer pool: reuse by length, a bound on idle bytes, and what shares it. */
class SharedGradientPoolTest {

    @Test
    void aBufferGivenBackIsTheNextOneTakenOfItsLength() {
        SharedGradientPool pool = new SharedGradientPool(1024);
        INDArray a = pool.take(8);
        pool.give(a);
        assertThat(pool.idleBytes()).isEqualTo(32);
        assertThat(pool.take(4)).as("another length is a new array").isNotSameAs(a);
        assertThat(pool.take(8)).isSameAs(a);
        assertThat(pool.idleBytes()).isZero();
    }

    @Test
    void buffersBeyondTheIdleBoundAreFreedAtOnce() {
        SharedGradientPool pool = new SharedGradientPool(40); // room for one array of 8 floats, not two
        INDArray first = pool.take(8);
        INDArray second = pool.take(8);
        pool.give(first);
        pool.give(second);
        assertThat(first.wasClosed()).isFalse();
        assertThat(second.wasClosed()).as("freed, not left to the garbage collector").isTrue();
        assertThat(pool.idleBytes()).isEqualTo(32);
        assertThatThrownBy(() -> new SharedGradientPool(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void perSliceApplicationSharesOnePoolAcrossSlicesWholePushKeepsASparePerSlice() {
        DenseStore shared = new DenseStore(PushApply.PER_SLICE.gradientBuffers());
        shared.initialize(Map.of(1L, Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 16),
                2L, Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 16)));
        INDArray g = shared.require(1L).takeGradientBuffer();
        shared.require(1L).recycle(g);
        assertThat(shared.require(2L).takeGradientBuffer()).as("slice 2 reuses what slice 1 gave back").isSameAs(g);

        DenseStore own = new DenseStore(PushApply.WHOLE_PUSH.gradientBuffers());
        own.initialize(Map.of(1L, Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 16),
                2L, Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 16)));
        INDArray h = own.require(1L).takeGradientBuffer();
        own.require(1L).recycle(h);
        assertThat(own.require(2L).takeGradientBuffer()).isNotSameAs(h);
        assertThat(own.require(1L).takeGradientBuffer()).isSameAs(h);
    }

    @Test
    void perSliceApplicationIsRefusedOutsideSync() {
        PushApply.PER_SLICE.requireSupports(ConsistencyMode.SYNC);
        for (ConsistencyMode mode : new ConsistencyMode[] {ConsistencyMode.ASYNC, ConsistencyMode.SSP, ConsistencyMode.GEO}) {
            PushApply.WHOLE_PUSH.requireSupports(mode);
            assertThatThrownBy(() -> PushApply.PER_SLICE.requireSupports(mode)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ps.server.push-apply=PER_SLICE").hasMessageContaining("ps.consistency.mode=SYNC")
                    .hasMessageContaining(mode.name());
        }
    }
}

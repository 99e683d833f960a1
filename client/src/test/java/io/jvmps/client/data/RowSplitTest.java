package io.jvmps.client.data;

import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.common.sparse.SparseCodec;
import io.jvmps.common.sparse.SparsePush;
import io.jvmps.common.sparse.UpdateKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class RowSplitTest {

    @Test
    void everyIdGoesToItsOwnerOnceInPartsOfBoundedSize() {
        long[] ids = LongStream.range(0, 1000).map(i -> i * 31 - 500).toArray();
        List<RowSplit> parts = RowSplit.of(ids, 3, 64);
        int[] seen = new int[ids.length];
        for (RowSplit part : parts) {
            assertThat(part.positions()).isNotEmpty().hasSizeLessThanOrEqualTo(64);
            for (int p : part.positions()) {
                assertThat(RowPlacement.serverOf(ids[p], 3)).isEqualTo(part.server());
                seen[p]++;
            }
        }
        assertThat(seen).containsOnly(1);
        assertThat(parts).extracting(RowSplit::server).isSorted();
    }

    @Test
    void rowsGoOutAndComeBackToTheirPositionsThroughTheFrames() {
        long[] ids = {5, 6, 7, 8, 9};
        float[] all = {0, 1, 10, 11, 20, 21, 30, 31, 40, 41};
        float[] back = new float[all.length];
        for (RowSplit part : RowSplit.of(ids, 2, 2)) {
            // a push frame written from the batch at the part's positions carries exactly the part's rows
            io.netty.buffer.ByteBuf push = SparseCodec.encodePush(io.netty.buffer.ByteBufAllocator.DEFAULT, "t", 0, 1,
                    UpdateKind.GRADIENT, 2, ids, all, part.positions());
            SparsePush sent;
            try {
                sent = SparseCodec.decodePush(push);
            } finally {
                push.release();
            }
            assertThat(sent.ids()).containsExactly(part.ids(ids));
            // and the rows frame answering it lands each row back at its position
            io.netty.buffer.ByteBuf rows = SparseCodec.encodeRows(io.netty.buffer.ByteBufAllocator.DEFAULT, 2,
                    sent.values());
            try {
                SparseCodec.decodeRowsInto(rows, 2, part.positions(), back);
            } finally {
                rows.release();
            }
        }
        assertThat(back).containsExactly(all);
        assertThat(RowSplit.of(new long[0], 2, 2)).isEmpty();
    }
}

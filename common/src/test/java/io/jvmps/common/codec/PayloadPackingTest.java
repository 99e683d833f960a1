package io.jvmps.common.codec;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PayloadPackingTest {
    private static final int CHUNK = 1000;

    private static List<List<Long>> groups(Long... bytes) {
        return PayloadPacking.groups(List.of(bytes), Long::longValue, CHUNK);
    }

    @Test
    void smallSlicesShareAPayloadWhileTheyFitOneChunkFrame() {
        // 56 header bytes each: 300 + 300 + 288 + 3 x 56 = 1056 = one full frame of 1000 data bytes
        assertThat(groups(300L, 300L, 288L, 1L)).containsExactly(List.of(300L, 300L, 288L), List.of(1L));
    }

    @Test
    void aPayloadIsNeverLargerThanOneFullChunkFrame() {
        List<Long> sizes = List.of(1L, 999L, 400L, 400L, 400L, 7L, 1000L, 3L, 2500L, 10L);
        for (List<Long> group : PayloadPacking.groups(sizes, Long::longValue, CHUNK)) {
            if (group.size() > 1) {
                long encoded = group.stream().mapToLong(b -> b + PayloadPacking.RANK1_HEADER_BYTES).sum();
                assertThat(encoded).isLessThanOrEqualTo(CHUNK + PayloadPacking.RANK1_HEADER_BYTES);
            }
        }
        assertThat(PayloadPacking.groups(sizes, Long::longValue, CHUNK).stream().flatMap(List::stream).toList())
                .as("every slice once, in order").isEqualTo(sizes);
    }

    @Test
    void aSliceLargerThanAChunkTravelsAlone() {
        assertThat(groups(10L, 2500L, 10L)).containsExactly(List.of(10L), List.of(2500L), List.of(10L));
        assertThat(groups(1000L, 1L)).containsExactly(List.of(1000L), List.of(1L));
    }

    @Test
    void aPackedGroupIsOnePayloadAndALoneSliceOnePerChunk() {
        assertThat(payloads(300L, 300L, 288L, 1L)).isEqualTo(2);
        assertThat(payloads(1000L)).as("exactly one chunk").isEqualTo(1);
        assertThat(payloads(1004L)).as("one element more").isEqualTo(2);
        assertThat(payloads(10L, 2500L, 10L)).isEqualTo(1 + 3 + 1);
        assertThat(payloads(0L)).as("an empty slice still sends its frame").isEqualTo(1);
        assertThat(PayloadPacking.payloadCount(PayloadPacking.groups(List.of(8L), Long::longValue, 2),
                Long::longValue, 2)).as("chunks below one element carry one element").isEqualTo(2);
    }

    private static long payloads(Long... bytes) {
        return PayloadPacking.payloadCount(groups(bytes), Long::longValue, CHUNK);
    }

    @Test
    void noSlicesNoGroups() {
        assertThat(groups()).isEmpty();
    }
}

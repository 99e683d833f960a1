package io.jvmps.common.sharding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class SliceKeyTest {

    @ParameterizedTest(name = "p{0}/s{1}")
    @CsvSource({
            "0, 0",
            "0, 1",
            "1, 0",
            "3, 7",
            "65535, 65536",
            "2147483647, 0",
            "0, 2147483647",
            "2147483646, 2147483647",
            "2147483647, 2147483647",
    })
    void packsAndUnpacks(int param, int slice) {
        long key = SliceKey.of(param, slice);

        assertThat(SliceKey.param(key)).isEqualTo(param);
        assertThat(SliceKey.slice(key)).isEqualTo(slice);
        assertThat(key).isNotNegative();
        assertThat(SliceKey.describe(key)).isEqualTo("p" + param + "/s" + slice);
    }

    @Test
    void keysSortByParameterThenSlice() {
        assertThat(SliceKey.of(0, Integer.MAX_VALUE)).isLessThan(SliceKey.of(1, 0));
        assertThat(SliceKey.of(5, 1)).isLessThan(SliceKey.of(5, 2));
        assertThat(SliceKey.of(Integer.MAX_VALUE - 1, Integer.MAX_VALUE)).isLessThan(SliceKey.of(Integer.MAX_VALUE, 0));
    }

    @Test
    void parameterLivesInTheHighHalf() {
        assertThat(SliceKey.of(1, 0)).isEqualTo(1L << 32);
        assertThat(SliceKey.of(2, 5)).isEqualTo(0x2_0000_0005L);
    }
}

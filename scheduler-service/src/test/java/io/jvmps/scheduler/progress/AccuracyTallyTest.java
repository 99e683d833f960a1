package io.jvmps.scheduler.progress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AccuracyTallyTest {

    @Test
    void sumsCountsAndDividesTheSums() {
        AccuracyTally tally = AccuracyTally.ZERO.plus(4950, 5000).plus(4800, 5000).plus(90, 100);
        assertThat(tally.correct()).isEqualTo(9840);
        assertThat(tally.total()).isEqualTo(10100);
        assertThat(tally.accuracy()).isEqualTo(9840.0 / 10100.0);
        assertThat(tally.percent()).isEqualTo("97.43");
    }

    @Test
    void emptyTallyHasNoAccuracy() {
        assertThat(AccuracyTally.ZERO.accuracy()).isNaN();
    }
}

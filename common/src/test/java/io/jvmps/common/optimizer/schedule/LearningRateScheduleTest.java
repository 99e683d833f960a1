package io.jvmps.common.optimizer.schedule;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Each schedule at chosen update counts, against rates worked out by hand. */
class LearningRateScheduleTest {
    private static final double TOL = 1e-12;

    private static LearningRateSchedule schedule(ScheduleType type, long warmup, long stepSize, double gamma,
                                                 long total, double min) {
        return new ScheduleSettings(type, warmup, stepSize, gamma, total, min).create(0.1);
    }

    @Test
    void constantNeverChanges() {
        LearningRateSchedule s = ScheduleSettings.constant().create(0.1);
        assertThat(s).isInstanceOf(ConstantSchedule.class);
        assertThat(s.rate(1)).isEqualTo(0.1);
        assertThat(s.rate(1_000_000)).isEqualTo(0.1);
        assertThat(s.describe()).isEqualTo("CONSTANT");
    }

    @Test
    void stepDecaysAtEveryBoundary() {
        // lr 0.1, step-size 3, gamma 0.5: updates 1-3 -> 0.1, 4-6 -> 0.05, 7-9 -> 0.025
        LearningRateSchedule s = schedule(ScheduleType.STEP, 0, 3, 0.5, 0, 0);
        assertThat(s.rate(1)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(3)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(4)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(6)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(7)).isCloseTo(0.025, within(TOL));
        // update 31: 10 decays, 0.1 * 0.5^10 = 0.1/1024 = 9.765625e-5
        assertThat(s.rate(31)).isCloseTo(9.765625e-5, within(TOL));
        assertThat(s.describe()).isEqualTo("STEP(step-size=3, gamma=0.5)");
    }

    @Test
    void stepWithGammaOneIsConstant() {
        LearningRateSchedule s = schedule(ScheduleType.STEP, 0, 1, 1.0, 0, 0);
        assertThat(s.rate(1)).isEqualTo(0.1);
        assertThat(s.rate(500)).isEqualTo(0.1);
    }

    @Test
    void cosineDecaysToTheMinimumAndStays() {
        // lr 0.1, min 0.01, total 10: rate(u) = 0.01 + 0.09 * (1 + cos(pi * (u-1)/10)) / 2
        LearningRateSchedule s = schedule(ScheduleType.COSINE, 0, 1, 1, 10, 0.01);
        assertThat(s.rate(1)).isCloseTo(0.1, within(TOL));
        // u=3: cos(0.2 pi) = 0.8090170; 0.01 + 0.045 * 1.8090170 = 0.0914058
        assertThat(s.rate(3)).isCloseTo(0.0914058, within(1e-7));
        // midpoint u=6: cos(pi/2) = 0 -> 0.01 + 0.045 = 0.055
        assertThat(s.rate(6)).isCloseTo(0.055, within(TOL));
        // u=10: cos(0.9 pi) = -0.9510565; 0.01 + 0.045 * 0.0489435 = 0.0122025
        assertThat(s.rate(10)).isCloseTo(0.0122025, within(1e-7));
        // end u=11: cos(pi) = -1 -> 0.01; and it stays there
        assertThat(s.rate(11)).isCloseTo(0.01, within(TOL));
        assertThat(s.rate(1000)).isCloseTo(0.01, within(TOL));
        assertThat(s.describe()).isEqualTo("COSINE(total-steps=10, min-learning-rate=0.01)");
    }

    @Test
    void warmupRampsLinearlyThenHandsOver() {
        // warm-up 4 in front of CONSTANT 0.1: 0.025, 0.05, 0.075, 0.1, then 0.1
        LearningRateSchedule s = schedule(ScheduleType.CONSTANT, 4, 1, 1, 0, 0);
        assertThat(s).isInstanceOf(LinearWarmup.class);
        assertThat(s.rate(1)).isCloseTo(0.025, within(TOL));
        assertThat(s.rate(2)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(3)).isCloseTo(0.075, within(TOL));
        assertThat(s.rate(4)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(5)).isCloseTo(0.1, within(TOL));
        assertThat(s.describe()).isEqualTo("CONSTANT after warm-up 4");
    }

    @Test
    void stepDecayCountsFromTheEndOfTheWarmup() {
        // warm-up 2 then STEP(3, 0.5): 0.05, 0.1 | 0.1, 0.1, 0.1 (post-warm-up updates 1-3) | 0.05 (update 4)
        LearningRateSchedule s = schedule(ScheduleType.STEP, 2, 3, 0.5, 0, 0);
        assertThat(s.rate(1)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(2)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(5)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(6)).isCloseTo(0.05, within(TOL));
    }

    @Test
    void cosineAfterWarmup() {
        // warm-up 10 then COSINE(total 10, min 0): ramp 0.01 .. 0.1, then cosine from 0.1 on update 11
        LearningRateSchedule s = schedule(ScheduleType.COSINE, 10, 1, 1, 10, 0);
        assertThat(s.rate(5)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(10)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(11)).isCloseTo(0.1, within(TOL));
        // post-warm-up update 6 (u=16) is the midpoint: 0.1 * (1 + cos(pi/2)) / 2 = 0.05
        assertThat(s.rate(16)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(21)).isCloseTo(0.0, within(TOL));
        assertThat(s.rate(99)).isCloseTo(0.0, within(TOL));
    }

    @Test
    void cosineWithoutTotalStepsSpansTheJobItsWorkersTell() {
        JobLength job = new JobLength();
        LearningRateSchedule s = new ScheduleSettings(ScheduleType.COSINE, 200, 1, 1, 0, 0.01, job).create(0.1);
        assertThat(s).isInstanceOf(JobSizedSchedule.class);
        // before the job told its length: the warm-up, then the base rate
        assertThat(s.rate(100)).isCloseTo(0.05, within(TOL));
        assertThat(s.rate(5000)).isCloseTo(0.1, within(TOL));
        assertThat(s.describe()).contains("no job has told its length");
        // a 3-epoch job of 1000 updates: warm-up 200, cosine over the other 800, the last update just above the floor
        assertThat(job.tell(1000)).isTrue();
        assertThat(job.tell(40)).as("the first length told wins").isFalse();
        assertThat(s.rate(1)).isCloseTo(0.1 / 200, within(TOL));
        assertThat(s.rate(200)).isCloseTo(0.1, within(TOL));
        assertThat(s.rate(600)).isCloseTo(0.01 + 0.09 * (1 + Math.cos(Math.PI * 399 / 800)) / 2, within(TOL));
        assertThat(s.rate(1000)).isCloseTo(0.01 + 0.09 * (1 + Math.cos(Math.PI * 799 / 800)) / 2, within(TOL));
        assertThat(s.rate(1001)).isCloseTo(0.01, within(TOL));
        assertThat(s.describe()).isEqualTo("COSINE(total-steps=800, min-learning-rate=0.01) after warm-up 200 "
                + "(the job's 1000 updates)");
    }

    @Test
    void aShortJobGetsAtMostHalfOfItsUpdatesAsWarmUp() {
        JobLength job = new JobLength();
        job.tell(190);
        LearningRateSchedule s = new ScheduleSettings(ScheduleType.COSINE, 200, 1, 1, 0, 0, job).create(0.005);
        assertThat(s.rate(1)).isCloseTo(0.005 / 95, within(TOL));
        assertThat(s.rate(95)).isCloseTo(0.005, within(TOL));
        assertThat(s.rate(190)).isCloseTo(0.005 * (1 + Math.cos(Math.PI * 94 / 95)) / 2, within(TOL));
        assertThat(s.rate(190)).isLessThan(0.005 * 0.001);
    }

    @Test
    void anExplicitTotalWinsOverTheJobsLength() {
        JobLength job = new JobLength();
        job.tell(1000);
        LearningRateSchedule s = new ScheduleSettings(ScheduleType.COSINE, 0, 1, 1, 10, 0, job).create(0.1);
        assertThat(s).isInstanceOf(CosineSchedule.class);
        assertThat(s.rate(11)).isCloseTo(0.0, within(TOL));
    }

    @Test
    void impossibleParametersAreRejected() {
        assertThatThrownBy(() -> new StepSchedule(0.1, 0, 0.5)).hasMessageContaining("step size must be >= 1");
        assertThatThrownBy(() -> new CosineSchedule(0.1, 0, 0)).hasMessageContaining("total steps must be >= 1");
        assertThatThrownBy(() -> new ScheduleSettings(ScheduleType.CONSTANT, -1, 1, 1, 0, 0))
                .hasMessageContaining("warm-up steps must be >= 0");
    }
}

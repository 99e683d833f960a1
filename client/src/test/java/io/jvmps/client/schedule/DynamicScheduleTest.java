package io.jvmps.client.schedule;

import io.jvmps.common.protocol.PartitionLease;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DynamicSchedule} against an in-memory partition queue: 64 examples, 4 partitions, batch 4, 2 epochs. */
class DynamicScheduleTest {
    private static final int SAMPLES = 64;
    private static final int PARTITIONS = 4;
    private static final LoopSettings SETTINGS = new LoopSettings(2, 4, 9, 10, 0, Duration.ZERO, 0);

    /** Leases (epoch, partition) in order, like the scheduler with one worker; counts reports. */
    private static final class Queue implements DynamicSchedule.Leases {
        private int next;
        private final List<String> reported = new ArrayList<>();

        @Override
        public PartitionLease next(int doneEpoch, int donePartition) {
            if (doneEpoch >= 0) {
                reported.add(doneEpoch + ":" + donePartition);
            }
            if (next >= 2 * PARTITIONS) {
                return new PartitionLease(false, -1, -1, reported.size(), 2 * PARTITIONS);
            }
            int i = next++;
            return new PartitionLease(true, i / PARTITIONS, i % PARTITIONS, reported.size(), 2 * PARTITIONS);
        }
    }

    @Test
    void thePartitionsOfAnEpochCoverEveryExampleOnceAndEachIsReportedOnce() {
        Queue queue = new Queue();
        DynamicSchedule schedule = new DynamicSchedule(SAMPLES, PARTITIONS, 2, SETTINGS, queue);
        BitSet[] seen = {new BitSet(), new BitSet()};
        long steps = 0;
        for (ScheduledStep s : schedule.plan(0).steps()) {
            for (int example : s.examples()) {
                assertThat(seen[s.epoch() - 1].get(example)).as("example " + example + " twice").isFalse();
                seen[s.epoch() - 1].set(example);
            }
            steps++;
        }
        assertThat(steps).isEqualTo(2 * PARTITIONS * 4);
        assertThat(seen[0].cardinality()).isEqualTo(SAMPLES);
        assertThat(seen[1].cardinality()).isEqualTo(SAMPLES);
        assertThat(queue.reported).containsExactly("0:0", "0:1", "0:2", "0:3", "1:0", "1:1", "1:2", "1:3");
        assertThat(schedule.plan(steps).steps().iterator().hasNext()).as("nothing left after the end").isFalse();
    }

    @Test
    void afterARollbackTheUndoneBatchesComeAgainInOrderAndNothingIsReportedTwice() {
        Queue queue = new Queue();
        DynamicSchedule schedule = new DynamicSchedule(SAMPLES, PARTITIONS, 2, SETTINGS, queue);
        List<String> original = new ArrayList<>();
        Iterator<ScheduledStep> first = schedule.plan(0).steps().iterator();
        for (int i = 0; i < 10; i++) { // partitions 0:0 (steps 0-3), 0:1 (4-7), half of 0:2 (8, 9)
            original.add(Arrays.toString(first.next().examples()));
        }
        assertThat(queue.reported).containsExactly("0:0", "0:1");

        List<String> again = new ArrayList<>();
        long steps = 5;
        for (ScheduledStep s : schedule.plan(5).steps()) { // the servers rolled back to step 5
            again.add(Arrays.toString(s.examples()));
            steps++;
        }
        assertThat(again.subList(0, 5)).as("steps 5-9 again, the same batches").isEqualTo(original.subList(5, 10));
        assertThat(steps).as("every batch of the job once after the rollback point").isEqualTo(2 * PARTITIONS * 4);
        assertThat(queue.reported).as("each partition reported once")
                .containsExactly("0:0", "0:1", "0:2", "0:3", "1:0", "1:1", "1:2", "1:3");
    }
}

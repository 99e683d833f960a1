package io.jvmps.client.train;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.schedule.DynamicSchedule;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.common.protocol.PartitionLease;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trainer's steps: a fixed schedule from any step (a recovery's) gives the batches that step had, its last step
 * marked; a leased one trains each partition's examples, and after a rollback the undone ones again.
 */
class StepSourceTest {

    /** Batch (epoch, position) as a one-example feature [epoch * 100 + position]. */
    private static final BatchSource THREE_PER_EPOCH = new BatchSource() {
        @Override
        public int perEpoch() {
            return 3;
        }

        @Override
        public LabeledData batch(int epoch, int inEpoch) {
            return new LabeledData(Nd4j.createFromArray(new float[][] {{epoch * 100 + inEpoch}}),
                    Nd4j.zeros(DataType.FLOAT, 1, 1));
        }
    };

    @Test
    void aFixedScheduleFromARecoveredStepGivesTheBatchesThatStepHad() {
        StepSource source = new StepSource.Fixed(THREE_PER_EPOCH, 2, 10, 0);
        assertThat(source.total()).isEqualTo(6);
        assertThat(source.end()).isEqualTo(16);
        List<String> all = describe(source.from(10));
        assertThat(all).containsExactly("1/1:0", "1/2:1", "1/3:2", "2/1:100", "2/2:101", "2/3:102 last");
        assertThat(describe(source.from(14))).as("resumed at step 14").containsExactly("2/2:101", "2/3:102 last");
        assertThat(source.from(16).hasNext()).isFalse();
        assertThat(describe(new StepSource.Fixed(THREE_PER_EPOCH, 2, 0, 4).from(0))).as("at most 4 steps")
                .containsExactly("1/1:0", "1/2:1", "1/3:2", "2/1:100 last");
    }

    @Test
    void leasedPartitionsCoverEveryExampleOnceAndARollbackTrainsTheUndoneStepsAgain() {
        int examples = 48;
        float[][] features = new float[examples][1];
        for (int i = 0; i < examples; i++) {
            features[i][0] = i;
        }
        LabeledData train = new LabeledData(Nd4j.createFromArray(features), Nd4j.zeros(DataType.FLOAT, examples, 1));
        List<String> reported = new ArrayList<>();
        int[] next = {0};
        DynamicSchedule.Leases queue = (doneEpoch, donePartition) -> {
            if (doneEpoch >= 0) {
                reported.add(doneEpoch + ":" + donePartition);
            }
            if (next[0] >= 4) {
                return new PartitionLease(false, -1, -1, reported.size(), 4);
            }
            int i = next[0]++;
            return new PartitionLease(true, i / 2, i % 2, reported.size(), 4);
        };
        StepSource source = new StepSource.Leased(new DynamicSchedule(examples, 2, 1,
                new LoopSettings(2, 8, 7, 1, 0, Duration.ZERO), queue), train);
        BitSet[] seen = {new BitSet(), new BitSet()};
        Iterator<StepSource.Step> steps = source.from(0);
        List<Float> firstRun = new ArrayList<>();
        for (int s = 0; s < 5; s++) { // partition 0 of epoch 1 (3 steps), then 2 steps of partition 1
            StepSource.Step step = steps.next();
            firstRun.add(step.batch().features().getFloat(0, 0));
            assertThat(step.last()).isFalse();
        }
        // the servers rolled back to step 4: the rest of partition 1 from its second batch on comes again
        Iterator<StepSource.Step> resumed = source.from(4);
        StepSource.Step again = resumed.next();
        assertThat(again.batch().features().getFloat(0, 0)).isEqualTo(firstRun.get(4));
        int count = 5;
        for (StepSource.Step step = again; ; step = resumed.next()) {
            count++;
            for (float f : step.batch().features().toFloatVector()) {
                seen[step.epoch() - 1].set((int) f);
            }
            if (!resumed.hasNext()) {
                break;
            }
        }
        assertThat(count).as("5 steps, then 2 again-and-rest of partition 1 and 6 of epoch 2").isEqualTo(5 + 1 + 7);
        assertThat(seen[1].cardinality()).as("epoch 2 covers every example once").isEqualTo(examples);
        assertThat(reported).containsExactly("0:0", "0:1", "1:0", "1:1");
    }

    private static List<String> describe(Iterator<StepSource.Step> steps) {
        List<String> out = new ArrayList<>();
        while (steps.hasNext()) {
            StepSource.Step s = steps.next();
            out.add(s.epoch() + "/" + s.inEpoch() + ":" + (int) s.batch().features().getFloat(0, 0)
                    + (s.last() ? " last" : ""));
        }
        return out;
    }
}

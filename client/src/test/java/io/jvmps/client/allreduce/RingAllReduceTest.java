package io.jvmps.client.allreduce;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Ring AllReduce maths over an in-memory ring: exact averages, identical results on every worker. */
class RingAllReduceTest {

    @ParameterizedTest(name = "W={0}, n={1}")
    @CsvSource({"1, 5", "2, 10", "2, 1", "3, 7", "3, 2", "3, 300"})
    void everyWorkerEndsWithTheExactAverage(int workers, int length) throws Exception {
        // Values k/8 with small integers k: sums and the division by W = 1, 2 are exact in float32;
        // for W = 3 compare with the double average.
        float[][] inputs = new float[workers][length];
        Random random = new Random(workers * 31L + length);
        for (int w = 0; w < workers; w++) {
            for (int i = 0; i < length; i++) {
                inputs[w][i] = (random.nextInt(200) - 100) / 8f;
            }
        }
        float[][] outputs = run(workers, inputs, 4);
        for (int i = 0; i < length; i++) {
            double sum = 0;
            for (int w = 0; w < workers; w++) {
                sum += inputs[w][i];
            }
            double expected = sum / workers;
            for (int w = 0; w < workers; w++) {
                if (workers < 3) {
                    assertThat(outputs[w][i]).as("worker %d element %d", w, i).isEqualTo((float) expected);
                } else {
                    assertThat((double) outputs[w][i]).as("worker %d element %d", w, i)
                            .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-5));
                }
            }
        }
        for (int w = 1; w < workers; w++) {
            assertThat(outputs[w]).as("worker %d equals worker 0 bit for bit", w).containsExactly(outputs[0]);
        }
    }

    @Test
    void consecutiveStepsDoNotMixUp() throws Exception {
        float[][] inputs = {{1, 2, 3, 4}, {3, 4, 5, 6}};
        InMemoryRing ring = new InMemoryRing(2, Duration.ofSeconds(10), 1024);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<float[]>> results = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int rank = w;
                results.add(pool.submit(() -> {
                    RingAllReduce reduce = new RingAllReduce(ring.link(rank));
                    float[] data = inputs[rank].clone();
                    for (long step = 0; step < 50; step++) {
                        reduce.average(step, data);
                        for (int i = 0; i < data.length; i++) {
                            data[i] += rank; // diverge again: worker 1 adds 1 every step
                        }
                    }
                    return data;
                }));
            }
            float[] w0 = results.get(0).get(10, TimeUnit.SECONDS);
            float[] w1 = results.get(1).get(10, TimeUnit.SECONDS);
            // after the last average both held avg; then worker 1 added 1
            for (int i = 0; i < 4; i++) {
                assertThat(w1[i] - w0[i]).isEqualTo(1f);
            }
            assertThat(ring.mailbox(0).pending()).isZero();
            assertThat(ring.mailbox(1).pending()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aMissingNeighbourTimesOutNamingIt() {
        InMemoryRing ring = new InMemoryRing(3, Duration.ofMillis(200), 1024);
        RingAllReduce reduce = new RingAllReduce(ring.link(1));
        assertThatThrownBy(() -> reduce.average(4, new float[] {1, 2, 3}))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("worker 0")
                .hasMessageContaining("step 4 REDUCE_SCATTER round 0");
    }

    @Test
    void segmentsCoverTheVectorAndDifferByAtMostOne() {
        assertThat(RingAllReduce.start(0, 10, 3)).isZero();
        assertThat(RingAllReduce.start(1, 10, 3)).isEqualTo(3);
        assertThat(RingAllReduce.start(2, 10, 3)).isEqualTo(6);
        assertThat(RingAllReduce.start(3, 10, 3)).isEqualTo(10);
    }

    static float[][] run(int workers, float[][] inputs, int chunkBytes) throws Exception {
        InMemoryRing ring = new InMemoryRing(workers, Duration.ofSeconds(10), chunkBytes);
        List<RingLink> links = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            links.add(ring.link(w));
        }
        float[][] out = RingRuns.average(links, inputs, 1);
        for (int w = 0; w < workers; w++) {
            assertThat(ring.mailbox(w).pending()).isZero();
        }
        return out;
    }
}

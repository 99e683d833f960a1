package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A straggler against each mode: LeNet-5, one epoch of all 60,000 MNIST images, 2 servers + 2 workers,
 * batch 64, with worker 1 slowed by a fixed pause per step (about 3x its step time) or not slowed at all.
 * SYNC keeps static shards; ASYNC and SSP take their batches from the scheduler's partition leases
 * ({@code ps.worker.dataset.sharding=DYNAMIC}, 64 partitions, so the last lease is short). Records job wall time
 * (first worker started to last worker exited), steps of each worker and the job's test accuracy.
 * Run: {@code ./mvnw -pl cluster-tests verify -Pbench -Dit.test=StragglerBenchmark}.
 */
@Tag("benchmark")
class StragglerBenchmark {
    private static final Pattern FINISHED = Pattern.compile("Training finished: (\\d+) steps in ([0-9.]+) s");
    private static final Pattern JOB = Pattern.compile("Job finished: test accuracy ([0-9.]+)%");

    @ParameterizedTest(name = "{0} {1} {2} slow-worker-delay={3}")
    @CsvSource({
            "SYNC,  STATIC,  ,                             0ms",
            "SYNC,  DYNAMIC, ,                             0ms",
            "ASYNC, STATIC,  ,                             0ms",
            "ASYNC, DYNAMIC, ,                             0ms",
            "SSP,   DYNAMIC, --ps.consistency.staleness=3, 0ms",
            "SYNC,  STATIC,  ,                             240ms",
            "ASYNC, DYNAMIC, ,                             240ms",
            "SSP,   DYNAMIC, --ps.consistency.staleness=3, 240ms"})
    void straggler(String mode, String sharding, String extra, String slowDelay) throws Exception {
        Path data = TestPaths.mnist();
        String name = "straggler-" + mode.toLowerCase(Locale.ROOT) + "-" + sharding.toLowerCase(Locale.ROOT) + "-"
                + slowDelay;
        try (LocalCluster cluster = new LocalCluster(name)) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 2, extra == null || extra.isBlank()
                        ? new String[] {"--ps.consistency.mode=" + mode}
                        : new String[] {"--ps.consistency.mode=" + mode, extra.trim()});
            }
            long start = System.nanoTime();
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.dataset.path=" + data, "--ps.worker.training.epochs=1",
                        "--ps.worker.training.batch-size=64", "--ps.worker.training.log-interval=100", "--ps.worker.dataset.sharding=" + sharding,
                        "--ps.worker.dataset.partitions=64", "--ps.worker.training.step-delay=" + (w == 1 ? slowDelay : "0ms"));
            }
            long[] steps = new long[2];
            for (int w = 0; w < 2; w++) {
                assertThat(workers[w].awaitExit(Duration.ofMinutes(20))).as(workers[w].tail()).isZero();
                Matcher m = FINISHED.matcher(workers[w].logText());
                assertThat(m.find()).as(workers[w].tail()).isTrue();
                steps[w] = Long.parseLong(m.group(1));
            }
            double wall = (System.nanoTime() - start) / 1e9;
            Matcher job = scheduler.awaitLog(JOB, Duration.ofSeconds(60));
            BenchmarkReport.record(String.format(Locale.ROOT, "straggler %s %s %s, worker-1 delay %s: wall %.1f s, "
                            + "steps %d / %d (worker 0 / 1), accuracy %s%%", mode, sharding,
                    extra == null ? "" : extra.trim(), slowDelay, wall, steps[0], steps[1], job.group(1)));
        }
    }
}

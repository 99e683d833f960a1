package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LeNet-5 on MNIST with 2 servers and 2 workers per consistency mode: final test accuracy, wall
 * time and bytes pushed; optionally with worker 1 slowed by a fixed delay per step.
 * Run: {@code ./mvnw -pl cluster-tests verify -Pbench -Dit.test=ConsistencyModesBenchmark}.
 */
@Tag("benchmark")
class ConsistencyModesBenchmark {
    private static final Pattern FINISHED = Pattern.compile(
            "Training finished: (\\d+) steps in ([0-9.]+) s .*pushed (\\d+) bytes");
    private static final Pattern JOB = Pattern.compile("Job finished: test accuracy ([0-9.]+)%");

    @ParameterizedTest(name = "{0} {1} slow-worker-delay={3}")
    @CsvSource({
            "SYNC,  ,                                  60000, 0ms",
            "ASYNC, ,                                  60000, 0ms",
            "SSP,   --ps.consistency.staleness=3,      60000, 0ms",
            "GEO,   --ps.consistency.geo-interval=10,  60000, 0ms",
            "SYNC,  ,                                  12800, 240ms",
            "ASYNC, ,                                  12800, 240ms",
            "SSP,   --ps.consistency.staleness=3,      12800, 240ms"})
    void mode(String mode, String extra, int images, String slowDelay) throws Exception {
        Path data = TestPaths.mnist();
        try (LocalCluster cluster = new LocalCluster("bench-" + mode.toLowerCase() + "-" + images + "-" + slowDelay)) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                List<String> args = new ArrayList<>(List.of("--ps.consistency.mode=" + mode,
                        "--ps.consistency.geo-learning-rate=0.1"));
                if (extra != null && !extra.isBlank()) {
                    args.add(extra.trim());
                }
                cluster.startServer(s, 2, 2, args.toArray(String[]::new));
            }
            long start = System.nanoTime();
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.dataset.path=" + data,
                        "--ps.worker.dataset.train-limit=" + images, "--ps.worker.training.epochs=1", "--ps.worker.training.batch-size=64",
                        "--ps.worker.training.log-interval=100", "--ps.worker.training.step-delay=" + (w == 1 ? slowDelay : "0ms"));
            }
            long bytes = 0;
            double[] trainSeconds = new double[2];
            for (int w = 0; w < 2; w++) {
                assertThat(workers[w].awaitExit(Duration.ofMinutes(15))).as(workers[w].tail()).isZero();
                Matcher m = FINISHED.matcher(workers[w].logText());
                assertThat(m.find()).as(workers[w].tail()).isTrue();
                trainSeconds[w] = Double.parseDouble(m.group(2));
                bytes += Long.parseLong(m.group(3));
            }
            double wall = (System.nanoTime() - start) / 1e9;
            Matcher job = scheduler.awaitLog(JOB, Duration.ofSeconds(30));
            BenchmarkReport.record(String.format(Locale.ROOT,
                    "mode %s %s, %d images, worker-1 delay %s: accuracy %s%%, training %.1f s / %.1f s (worker 0 / 1), "
                            + "wall %.1f s, pushed %d bytes", mode, extra == null ? "" : extra.trim(), images,
                    slowDelay, job.group(1), trainSeconds[0], trainSeconds[1], wall, bytes));
        }
    }
}

package io.jvmps.cluster;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.data.SparseClient;
import io.jvmps.common.sparse.RowLifecycle;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An endless stream of ids against 2 real servers: each step pulls and pushes the rows of 256 ids drawn Zipf(1.05)
 * over 2^40 (so new ids keep coming: most are seen once), for {@code -Dchurn.seconds} (default 90) per run. Run
 * once with a table that admits ids on their second push and evicts rows idle for {@code -Dchurn.evict-after}
 * (default 2,000) steps, and, as the same-run baseline, once with a table that keeps every row (it ends early when
 * the servers' {@code ps.sparse.max-bytes}, half their heap, refuses its pushes). Every 10 s it samples the table's
 * bytes on the servers and their resident memory (VmRSS); reports the mean of the last quarter of the samples
 * against the first quarter, sampling from {@code -Dchurn.warm-seconds} (default 20) on in the bounded run (the
 * table fills to its steady size first) and from the first {@code evict-after} steps on in the baseline.
 */
@Tag("benchmark")
class TableChurnBenchmark {
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern SPARSE_BYTES = Pattern.compile("(?m)^ps_server_sparse_bytes\\S* (\\S+)$");
    private static final int BATCH = 256;
    private static final int DIM = 8;
    private static final double ZIPF = 1.05;
    private static final double IDS = Math.pow(2, 40);

    @Test
    void anEndlessIdStreamStaysFlatWithEvictionAndGrowsWithout() throws Exception {
        int seconds = Integer.getInteger("churn.seconds", 90);
        long evictAfter = Long.getLong("churn.evict-after", 2_000);
        Run bounded = run("churn-bounded", new RowLifecycle(2, evictAfter), seconds, evictAfter);
        // -Dchurn.baseline=false leaves out the run that keeps every row (to run the bounded one longer)
        Run keepAll = Boolean.parseBoolean(System.getProperty("churn.baseline", "true"))
                ? run("churn-keep-all", RowLifecycle.KEEP_ALL, seconds, evictAfter) : null;
        for (Run r : keepAll == null ? List.of(bounded) : List.of(bounded, keepAll)) {
            BenchmarkReport.record(String.format(Locale.ROOT, "endless ids (Zipf %.2f over 2^40, %d ids a step, dim %d, "
                            + "ADAGRAD, 2 servers), %s: %d steps in %.0f s%s; table MB first/last window %.1f/%.1f "
                            + "(%.3fx), servers' RSS MB %.0f/%.0f (%.3fx); table MB every 10 s: %s", ZIPF, BATCH, DIM, r == bounded
                            ? "admit after 2 pushes, evict after " + evictAfter + " idle steps" : "every row kept",
                    r.steps, r.seconds, r.refused ? ", then refused by ps.sparse.max-bytes" : "", r.firstTable,
                    r.lastTable, r.lastTable / r.firstTable, r.firstRss, r.lastRss, r.lastRss / r.firstRss, r.series));
        }
        if (keepAll != null) {
            assertThat(bounded.lastTable / bounded.firstTable).as("table bytes with eviction, last/first window")
                    .isLessThan(keepAll.lastTable / keepAll.firstTable);
        }
    }

    /** Means of the first and the last sampling windows, in MB; steps done. */
    private record Run(long steps, double seconds, boolean refused, double firstTable, double lastTable,
                       double firstRss, double lastRss, String series) {
    }

    private static Run run(String name, RowLifecycle lifecycle, int seconds, long warmSteps) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            cluster.startScheduler(2, 1);
            List<NodeProcess> servers = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                servers.add(cluster.startServer(s, 2, 1, "--ps.optimizer.type=ADAGRAD",
                        "--ps.optimizer.learning-rate=0.05", "--ps.consistency.mode=ASYNC"));
            }
            int[] http = new int[2];
            for (int s = 0; s < 2; s++) {
                http[s] = Integer.parseInt(servers.get(s).awaitLog(HTTP_PORT, Duration.ofSeconds(90)).group(1));
            }
            try (PsJob job = PsJob.join(ClientSettings.of("127.0.0.1", cluster.schedulerPort(), cluster.secret()))) {
                job.declareTables(List.of(new SparseTableSpec("churn", DIM, 3, 0.01f, "ADAGRAD")
                        .withLifecycle(lifecycle)));
                SparseClient sparse = job.sparse();
                SplittableRandom random = new SplittableRandom(11);
                float[] rows = new float[BATCH * DIM];
                float[] gradient = new float[BATCH * DIM];
                long start = System.nanoTime();
                long nextSample = start + 10_000_000_000L;
                long end = start + seconds * 1_000_000_000L;
                long steps = 0;
                long warmedAt = -1;
                long warmNanos = lifecycle.evicts() ? Long.getLong("churn.warm-seconds", 20) * 1_000_000_000L : 0;
                boolean refused = false;
                List<double[]> samples = new ArrayList<>(); // [table MB, RSS MB], after warm-up
                while (System.nanoTime() < end) {
                    long[] ids = batch(random);
                    for (int i = 0; i < gradient.length; i++) {
                        gradient[i] = (float) (random.nextDouble() - 0.5) * 0.01f;
                    }
                    sparse.pull("churn", DIM, ids, rows);
                    try {
                        sparse.push("churn", DIM, ++steps, UpdateKind.GRADIENT, ids, gradient);
                    } catch (io.jvmps.common.protocol.PsException e) {
                        if (e.code() != io.jvmps.common.protocol.ErrorCode.RESOURCE_EXHAUSTED) {
                            throw e;
                        }
                        refused = true;
                        break;
                    }
                    if (warmedAt < 0 && steps >= warmSteps && System.nanoTime() - start >= warmNanos) {
                        warmedAt = System.nanoTime();
                        nextSample = warmedAt;
                    }
                    if (warmedAt >= 0 && System.nanoTime() >= nextSample) {
                        samples.add(sample(servers, http));
                        nextSample += 10_000_000_000L;
                    }
                }
                samples.add(sample(servers, http));
                assertThat(samples.size()).as("samples after warm-up (run longer than the warm-up steps)")
                        .isGreaterThanOrEqualTo(3);
                int window = Math.max(1, samples.size() / 4);
                return new Run(steps, (System.nanoTime() - start) / 1e9, refused, mean(samples, 0, window, 0), mean(samples, samples.size() - window, window, 0),
                        mean(samples, 0, window, 1), mean(samples, samples.size() - window, window, 1),
                        samples.stream().map(x -> String.format(Locale.ROOT, "%.1f", x[0]))
                                .collect(java.util.stream.Collectors.joining(" ")));
            }
        }
    }

    /** @return 256 distinct ids, ranks Zipf over 2^40 by the continuous inverse CDF, scrambled into ids */
    private static long[] batch(SplittableRandom random) {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        long[] ids = new long[BATCH];
        int n = 0;
        double a = 1 - ZIPF;
        while (n < BATCH) {
            double u = random.nextDouble();
            long rank = (long) Math.pow((Math.pow(IDS, a) - 1) * u + 1, 1 / a);
            long id = rank * 0x9E3779B97F4A7C15L;
            if (seen.add(id)) {
                ids[n++] = id;
            }
        }
        return ids;
    }

    private static double[] sample(List<NodeProcess> servers, int[] http) throws IOException {
        double table = 0;
        double rss = 0;
        for (int s = 0; s < servers.size(); s++) {
            String metrics = LocalCluster.get(http[s], "/actuator/prometheus").orElseThrow();
            Matcher m = SPARSE_BYTES.matcher(metrics);
            assertThat(m.find()).as("ps_server_sparse_bytes on server " + s).isTrue();
            table += Double.parseDouble(m.group(1)) / 1e6;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(servers.get(s).process().pid()),
                    "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss += Long.parseLong(line.replaceAll("\\D", "")) / 1e3;
                }
            }
        }
        return new double[] {table, rss};
    }

    private static double mean(List<double[]> samples, int from, int count, int field) {
        double sum = 0;
        for (int i = from; i < from + count; i++) {
            sum += samples.get(i)[field];
        }
        return sum / count;
    }
}

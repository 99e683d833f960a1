package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wide-and-deep on the synthetic click data, scheduler + 2 servers + 1 worker, SYNC: (1) test AUC against
 * the generator's oracle AUC; (2) steps per second with an embedding cache of 10% of the vocabulary against
 * the same job without a cache, in one run, with the cache's hit rate.
 */
@Tag("benchmark")
class CtrBenchmark {
    private static final Pattern FINISHED = Pattern.compile(
            "Training finished: (\\d+) steps in ([0-9.]+) s \\(([0-9.]+) samples/s");
    private static final Pattern AUC = Pattern.compile("CTR test AUC ([0-9.]+) \\(oracle ([0-9.]+)");
    private static final Pattern HIT = Pattern.compile(
            "Embedding cache (ctr\\.\\w+): hit rate ([0-9.]+).*lookup hit rate ([0-9.]+)");

    private static final Pattern STEP_LINE = Pattern.compile(
            "(?m)^(\\d\\d):(\\d\\d):(\\d\\d\\.\\d+) .*StepReporter - epoch: (\\d+) step: (\\d+),");

    /**
     * The address the servers advertise, so the worker's pushes and pulls go to it: 127.0.0.2 with
     * {@code scripts/shaped-link.sh on RATE} puts a link of that bandwidth between worker and servers.
     */
    private static final String SERVER_HOST = System.getProperty("ctr.server-host", "127.0.0.1");

    private record Result(long steps, double seconds, double samplesPerSecond, double auc, double oracle,
                          String hitRates, double lastEpochStepsPerSecond) {
        double stepsPerSecond() {
            return steps / seconds;
        }
    }

    @Test
    void aucAgainstTheOracle() throws Exception {
        String vocabulary = System.getProperty("ctr.vocabulary", "100");
        String rate = System.getProperty("ctr.rate", "0.4");
        String epochs = System.getProperty("ctr.epochs", "2");
        Result r = run("ctr-bench-auc", "ADAGRAD", rate, List.of("--ps.worker.ctr.fields=8",
                "--ps.worker.ctr.vocabulary=" + vocabulary, "--ps.worker.ctr.crosses=3",
                "--ps.worker.ctr.train-size=400000", "--ps.worker.ctr.test-size=50000", "--ps.worker.ctr.dim=8",
                "--ps.worker.training.batch-size=256", "--ps.worker.training.epochs=" + epochs));
        BenchmarkReport.record(String.format(Locale.ROOT, "wide-and-deep, 8 fields x %s values, 3 crosses, 400k "
                        + "examples, %s epochs, ADAGRAD %s: test AUC %.4f, oracle AUC %.4f, gap %.4f (%d steps, %.1f s)",
                vocabulary, epochs, rate, r.auc, r.oracle, r.oracle - r.auc, r.steps, r.seconds));
        assertThat(r.auc).isGreaterThan(0.6);
    }

    @Test
    void cacheOfTenPercentAgainstNoCache() throws Exception {
        String batch = System.getProperty("ctr.batch", "256");
        String epochs = System.getProperty("ctr.epochs", "4");
        List<String> job = List.of("--ps.worker.ctr.fields=8", "--ps.worker.ctr.vocabulary=100000",
                "--ps.worker.ctr.zipf=1.05", "--ps.worker.ctr.crosses=0", "--ps.worker.ctr.train-size=200000",
                "--ps.worker.ctr.test-size=10000", "--ps.worker.ctr.dim=64", "--ps.worker.training.batch-size=" + batch,
                "--ps.worker.training.epochs=" + epochs);
        Result direct = run("ctr-bench-direct", "SGD", "0.5", with(job, "--ps.worker.ctr.vocab-cache-size=0"));
        for (String eviction : System.getProperty("ctr.evictions", "LRU,LFU").split(",")) {
            Result cached = run("ctr-bench-cached-" + eviction, "SGD", "0.5", with(with(job,
                    "--ps.worker.ctr.vocab-cache-size=80000"), "--ps.worker.ctr.eviction=" + eviction));
            BenchmarkReport.record(String.format(Locale.ROOT, "CTR (servers at %s) 8 fields x 100k values "
                            + "(800k rows per table), Zipf 1.05, dim 64, batch %s, 200k examples x %s epochs: whole job no cache %.2f steps/s, "
                            + "vocab_cache_size 80000 (10%%) %s %.2f steps/s, ratio %.2f; last epoch (JIT settled) "
                            + "%.2f vs %.2f steps/s, ratio %.2f; hit rates %s; AUC %.4f / %.4f (oracle %.4f)", SERVER_HOST, batch, epochs,
                    direct.stepsPerSecond(), eviction, cached.stepsPerSecond(),
                    cached.stepsPerSecond() / direct.stepsPerSecond(), direct.lastEpochStepsPerSecond,
                    cached.lastEpochStepsPerSecond, cached.lastEpochStepsPerSecond / direct.lastEpochStepsPerSecond,
                    cached.hitRates, direct.auc, cached.auc, direct.oracle));
            assertThat(cached.stepsPerSecond()).isPositive();
        }
    }

    private static List<String> with(List<String> job, String extra) {
        List<String> all = new ArrayList<>(job);
        all.add(extra);
        return all;
    }

    private static Result run(String name, String optimizer, String rate, List<String> job) throws IOException {
        try (LocalCluster cluster = new LocalCluster(name)) {
            cluster.startScheduler(2, 1);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 1, "--ps.optimizer.type=" + optimizer, "--ps.optimizer.learning-rate=" + rate,
                        "--ps.consistency.mode=SYNC", "--ps.node.host=" + SERVER_HOST);
            }
            List<String> args = new ArrayList<>(List.of("--ps.worker.job=CTR", "--ps.worker.training.log-interval=100",
                    "--ps.worker.training.seed=11"));
            args.addAll(job);
            NodeProcess worker = cluster.startWorker(0, 2, 1, args.toArray(String[]::new));
            assertThat(worker.awaitExit(Duration.ofMinutes(30))).as(worker.name() + "\n" + worker.tail()).isZero();
            String log = worker.logText();
            Matcher finished = FINISHED.matcher(log);
            Matcher auc = AUC.matcher(log);
            assertThat(finished.find() && auc.find()).as("summary lines in " + name).isTrue();
            StringBuilder hits = new StringBuilder();
            Matcher hit = HIT.matcher(log);
            while (hit.find()) {
                hits.append(hits.isEmpty() ? "" : ", ").append(hit.group(1)).append(" distinct ids ").append(hit.group(2))
                        .append(" lookups ").append(hit.group(3));
            }
            return new Result(Long.parseLong(finished.group(1)), Double.parseDouble(finished.group(2)),
                    Double.parseDouble(finished.group(3)), Double.parseDouble(auc.group(1)),
                    Double.parseDouble(auc.group(2)), hits.isEmpty() ? "none" : hits.toString(), lastEpochRate(log));
        }
    }

    /**
     * Steps per second over the last epoch, from the worker's step lines (its first logged step to its last):
     * the first epochs of a one-minute job are mostly JIT warm-up (about 90 ms a step at first, 20 ms later).
     */
    private static double lastEpochRate(String log) {
        Matcher m = STEP_LINE.matcher(log);
        int epoch = 0;
        double firstSeconds = 0;
        double lastSeconds = 0;
        long firstStep = 0;
        long lastStep = 0;
        while (m.find()) {
            double seconds = Integer.parseInt(m.group(1)) * 3600 + Integer.parseInt(m.group(2)) * 60
                    + Double.parseDouble(m.group(3));
            int e = Integer.parseInt(m.group(4));
            long step = Long.parseLong(m.group(5));
            if (e != epoch) {
                epoch = e;
                firstSeconds = seconds;
                firstStep = step;
            }
            lastSeconds = seconds;
            lastStep = step;
        }
        double elapsed = lastSeconds - firstSeconds;
        return elapsed > 0 ? (lastStep - firstStep) / elapsed : Double.NaN;
    }
}

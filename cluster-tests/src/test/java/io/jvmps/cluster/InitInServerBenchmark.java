package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * init_in_server: a deep table of 8 x 1,048,576 rows of dim 64 (2 GiB of values) is created on 2 servers
 * (-Xmx2g each) at declaration, and a worker with a 512 MB heap, four times smaller than the table, trains
 * wide-and-deep against it through a 100k-row embedding cache without running out of memory.
 */
@Tag("benchmark")
class InitInServerBenchmark {
    private static final Pattern DECLARED = Pattern.compile("wide-and-deep dim (\\d+), .*table ctr.deep holds up to "
            + "(\\d+) rows \\(([0-9.]+) MB of values\\)");
    private static final Pattern HELD = Pattern.compile("held there now: \\[(.*)]");
    private static final Pattern HEAP = Pattern.compile("Worker heap: peak ([0-9.]+) MB of max ([0-9.]+) MB");
    private static final Pattern FINISHED = Pattern.compile("Training finished: (\\d+) steps in ([0-9.]+) s");
    private static final Pattern AUC = Pattern.compile("CTR test AUC ([0-9.]+) \\(oracle ([0-9.]+)");

    @Test
    void aTableFourTimesTheWorkersHeapTrains() throws Exception {
        try (LocalCluster cluster = new LocalCluster("init-in-server")) {
            cluster.startScheduler(2, 1);
            for (int s = 0; s < 2; s++) {
                cluster.startServerWithHeap(s, 2, 1, "-Xmx2g", "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=0.5", "--ps.consistency.mode=SYNC", "--ps.sparse.max-bytes=1800MB");
            }
            NodeProcess worker = cluster.startWorkerWithHeap(0, 2, 1, "-Xmx512m", "--ps.worker.job=CTR",
                    "--ps.worker.ctr.fields=8", "--ps.worker.ctr.vocabulary=1048576", "--ps.worker.ctr.dim=64",
                    "--ps.worker.ctr.crosses=0", "--ps.worker.ctr.init-in-server=true",
                    "--ps.worker.ctr.vocab-cache-size=100000", "--ps.worker.ctr.train-size=100000",
                    "--ps.worker.ctr.test-size=10000", "--ps.worker.training.batch-size=256", "--ps.worker.training.epochs=1",
                    "--ps.worker.training.log-interval=100", "--ps.worker.servers.wait-timeout=10m",
                    "--ps.worker.servers.request-timeout=10m");
            assertThat(worker.awaitExit(Duration.ofMinutes(30))).as(worker.tail()).isZero();
            String log = worker.logText();
            Matcher declared = DECLARED.matcher(log);
            Matcher held = HELD.matcher(log);
            Matcher heap = HEAP.matcher(log);
            Matcher finished = FINISHED.matcher(log);
            Matcher auc = AUC.matcher(log);
            assertThat(declared.find() && held.find() && heap.find() && finished.find() && auc.find()).as(worker.tail()).isTrue();
            assertThat(worker.logText()).doesNotContain("OutOfMemoryError");
            BenchmarkReport.record(String.format(Locale.ROOT, "init_in_server: table of %s rows x dim %s = %s MB of "
                            + "values created on 2 servers at declaration (%s); worker -Xmx512m (peak heap %s MB) "
                            + "trained %s steps in %s s with a 100k-row cache, test AUC %s (oracle %s)",
                    declared.group(2), declared.group(1), declared.group(3), held.group(1), heap.group(1),
                    finished.group(1), finished.group(2), auc.group(1), auc.group(2)));
            // 2 GiB of values against a 512 MiB heap: 4x (the JVM reports a little more than 512 MiB as its max)
            assertThat(Double.parseDouble(declared.group(3))).isGreaterThan(3.9 * Double.parseDouble(heap.group(2)));
        }
    }
}

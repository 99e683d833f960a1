package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wide-and-deep on sparse tables across 2 real servers: one worker in SYNC mode with SGD trains the same
 * job twice, once pulling and pushing rows every step and once through an embedding cache far smaller than
 * the vocabulary (so rows are evicted and written back). Both runs must leave the same tables on the
 * servers (within 1e-5) and the model must have learned (test AUC well above chance).
 */
class CtrEmbeddingIT {
    private static final Pattern AUC = Pattern.compile("CTR test AUC (\\d\\.\\d+) \\(oracle (\\d\\.\\d+)");
    private static final Pattern CACHE = Pattern.compile(
            "Embedding cache ctr.deep: hit rate (\\d\\.\\d+) \\((\\d+) hits, (\\d+) misses.*?(\\d+) evictions, (\\d+) write-backs");
    private static final List<String> JOB = List.of("--ps.worker.job=CTR", "--ps.worker.ctr.fields=6",
            "--ps.worker.ctr.vocabulary=400", "--ps.worker.ctr.crosses=2", "--ps.worker.ctr.train-size=4000",
            "--ps.worker.ctr.test-size=2000", "--ps.worker.ctr.dim=4", "--ps.worker.ctr.hidden1=16",
            "--ps.worker.ctr.hidden2=8", "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=2",
            "--ps.worker.training.log-interval=25", "--ps.worker.training.seed=5");

    @Test
    void theCacheLeavesTheSameTablesAsDirectLookupAndTheModelLearns() throws Exception {
        Run direct = train("ctr-direct", "--ps.worker.ctr.vocab-cache-size=0");
        Run cached = train("ctr-cached", "--ps.worker.ctr.vocab-cache-size=800");

        Matcher cache = CACHE.matcher(cached.log);
        assertThat(cache.find()).as("cache statistics in the worker log").isTrue();
        assertThat(Long.parseLong(cache.group(4))).as("evictions").isPositive();
        assertThat(Long.parseLong(cache.group(5))).as("write-backs").isPositive();
        assertThat(Double.parseDouble(cache.group(1))).as("hit rate").isGreaterThan(0.5);

        for (String table : List.of("ctr.wide", "ctr.deep")) {
            TableDiff diff = TableDiff.of(read(direct.dir.resolve("worker-0").resolve(table + ".rows")),
                    read(cached.dir.resolve("worker-0").resolve(table + ".rows")));
            assertThat(diff.maxDiff()).as(table + ": largest difference between cached and direct training")
                    .isLessThan(1e-5);
            assertThat(diff.largest()).as(table + ": rows were trained").isGreaterThan(0.02);
        }
        for (Run run : List.of(direct, cached)) {
            Matcher auc = AUC.matcher(run.log);
            assertThat(auc.find()).as("AUC line in the worker log").isTrue();
            assertThat(Double.parseDouble(auc.group(1))).as("test AUC").isGreaterThan(0.62);
            assertThat(Double.parseDouble(auc.group(2))).as("oracle AUC").isGreaterThan(Double.parseDouble(auc.group(1)));
            // the job status merges the workers' score histograms: the same AUC up to ties within a bucket
            assertThat(run.status).contains("\"state\":\"FINISHED\"").contains("\"task\":\"BINARY\"");
            Matcher reported = Pattern.compile("\"auc\":([0-9.]+)").matcher(run.status);
            assertThat(reported.find()).as(run.status).isTrue();
            assertThat(Double.parseDouble(reported.group(1))).as("job status AUC")
                    .isCloseTo(Double.parseDouble(auc.group(1)), org.assertj.core.api.Assertions.within(2e-3));
            assertThat(run.status).containsPattern("\"logLoss\":0\\.[0-9]+");
        }
    }

    /**
     * @param dir    the exported tables
     * @param log    the worker's log
     * @param status the scheduler's job status (JSON) after the worker reported
     */
    private record Run(Path dir, String log, String status) {
    }

    /**
     * Two exports of one table compared: the largest element difference, and the largest magnitude in the
     * first (to show the rows moved at all).
     */
    record TableDiff(double maxDiff, double largest) {
        static TableDiff of(Map<Long, float[]> expected, Map<Long, float[]> actual) {
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            double maxDiff = 0;
            double largest = 0;
            for (Map.Entry<Long, float[]> row : expected.entrySet()) {
                float[] other = actual.get(row.getKey());
                for (int k = 0; k < other.length; k++) {
                    maxDiff = Math.max(maxDiff, Math.abs(row.getValue()[k] - other[k]));
                    largest = Math.max(largest, Math.abs(row.getValue()[k]));
                }
            }
            return new TableDiff(maxDiff, largest);
        }
    }

    private static Run train(String name, String cacheSetting) throws IOException {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("tables");
            cluster.startScheduler(2, 1);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 1, "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.5",
                        "--ps.consistency.mode=SYNC");
            }
            List<String> args = new java.util.ArrayList<>(JOB);
            args.add(cacheSetting);
            args.add("--ps.worker.output.parameters-dir=" + out);
            NodeProcess worker = cluster.startWorker(0, 2, 1, args.toArray(String[]::new));
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail()).isZero();
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
            return new Run(out, worker.logText(), status);
        }
    }

    /** @return the rows of a table exported by a worker ({@code <table>.rows}), by id */
    static Map<Long, float[]> read(Path file) throws IOException {
        Map<Long, float[]> rows = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            int dim = in.readInt();
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                long id = in.readLong();
                float[] row = new float[dim];
                for (int k = 0; k < dim; k++) {
                    row[k] = in.readFloat();
                }
                rows.put(id, row);
            }
        }
        return rows;
    }
}

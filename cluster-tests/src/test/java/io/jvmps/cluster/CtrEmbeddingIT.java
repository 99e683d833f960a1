package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.jvmps.worker.ctr.ClickData;
import io.jvmps.worker.ctr.ClickDataSpec;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wide-and-deep on sparse tables across 2 real servers: one worker in SYNC mode with SGD trains the same
 * job twice, once pulling and pushing rows every step and once through an embedding cache far smaller than
 * the vocabulary (so rows are evicted and written back). Both runs must leave the same tables on the
 * servers (within 1e-5) and the model must have learned (test AUC well above chance). A third run declares the
 * tables with admission (an id's second push) and eviction (rows idle for 40 steps): the servers count what they
 * dropped and removed, and the model ends within 0.02 AUC of the run that keeps every row.
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

    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");

    @Test
    void theCacheLeavesTheSameTablesAsDirectLookupAndTheModelLearns() throws Exception {
        Run direct = train("ctr-direct", "--ps.worker.ctr.vocab-cache-size=0");
        Run cached = train("ctr-cached", "--ps.worker.ctr.vocab-cache-size=800");
        Run bounded = train("ctr-lifecycle", "--ps.worker.ctr.vocab-cache-size=0", "--ps.worker.ctr.admit-after=2",
                "--ps.worker.ctr.evict-after-steps=40");

        Run rowwise = train("ctr-rowwise", "--ps.worker.ctr.vocab-cache-size=0",
                "--ps.worker.ctr.table-optimizer=ROWWISE_ADAGRAD");
        assertThat(auc(rowwise)).as("AUC with row-wise Adagrad on both tables").isGreaterThan(0.62);
        assertThat(rowwise.serverMetrics).containsPattern("ps_server_sparse_table_bytes\\{[^}]*table=\"ctr.deep\"");

        double keepAll = auc(direct);
        assertThat(auc(bounded)).as("AUC with admission and eviction against keeping every row")
                .isCloseTo(keepAll, org.assertj.core.api.Assertions.within(0.02));
        for (String table : List.of("ctr.wide", "ctr.deep")) {
            assertThat(counter(bounded.serverMetrics, "ps_server_sparse_rows_evicted_total", table))
                    .as(table + " rows evicted").isPositive();
            assertThat(counter(bounded.serverMetrics, "ps_server_sparse_gradients_dropped_total", table))
                    .as(table + " gradients dropped before admission").isPositive();
            assertThat(counter(direct.serverMetrics, "ps_server_sparse_rows_evicted_total", table)).isZero();
            assertThat(read(bounded.dir.resolve("worker-0"), table).size()).as(table + ": fewer rows held")
                    .isLessThan(read(direct.dir.resolve("worker-0"), table).size());
        }

        Matcher cache = CACHE.matcher(cached.log);
        assertThat(cache.find()).as("cache statistics in the worker log").isTrue();
        assertThat(Long.parseLong(cache.group(4))).as("evictions").isPositive();
        assertThat(Long.parseLong(cache.group(5))).as("write-backs").isPositive();
        assertThat(Double.parseDouble(cache.group(1))).as("hit rate").isGreaterThan(0.5);

        for (String table : List.of("ctr.wide", "ctr.deep")) {
            TableDiff diff = TableDiff.of(read(direct.dir.resolve("worker-0"), table),
                    read(cached.dir.resolve("worker-0"), table));
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
            // the exported model alone (graph and table files; no server) scores the test set as the job did, but
            // for the few test ids no step trained, which read zeros instead of the job's seeded initial rows
            assertThat(aucFromExport(run.model)).as("AUC of the exported files")
                    .isCloseTo(Double.parseDouble(auc.group(1)), org.assertj.core.api.Assertions.within(2e-3));
            assertThat(read(run.model, "ctr.deep")).as("the export holds the servers' rows")
                    .containsOnlyKeys(read(run.dir.resolve("worker-0"), "ctr.deep").keySet());
        }
    }

    /**
     * Scores the job's test set from the files rank 0 wrote to the model folder with nd4j and the documented table
     * files alone: {@code SameDiff.load} reads {@code model.sd}, {@link io.jvmps.client.train.SavedTables} puts each
     * table's rows in and maps the ids to their positions (an id the servers never trained reads zeros).
     */
    private static double aucFromExport(Path dir) {
        ClickDataSpec spec = new ClickDataSpec(6, 400, 1.05, 2, 0.6, 0.8, -1.0, 5); // JOB's, with the defaults
        ClickData test = ClickData.generate(spec, 2000, 1);
        org.nd4j.autodiff.samediff.SameDiff sd = org.nd4j.autodiff.samediff.SameDiff.load(
                dir.resolve("model.sd").toFile(), false);
        io.jvmps.client.train.SavedTables tables = io.jvmps.client.train.SavedTables.load(sd, dir);
        int[] all = java.util.stream.IntStream.range(0, test.size()).toArray();
        Map<String, org.nd4j.linalg.api.ndarray.INDArray> ids = tables.positions(
                new io.jvmps.worker.ctr.ClickExamples(test).gather(all).ids());
        float[] scores = sd.output(ids, "probability").get("probability").toFloatVector();
        byte[] labels = new byte[test.size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = (byte) test.label(i);
        }
        return io.jvmps.worker.ctr.Auc.of(scores, labels);
    }

    /**
     * @param dir    the tables the worker dumped ({@code ps.worker.output.parameters-dir})
     * @param model  the model rank 0 exported ({@code ps.worker.output.model-dir})
     * @param log    the worker's log
     * @param status the scheduler's job status (JSON) after the worker reported
     */
    private record Run(Path dir, Path model, String log, String status, String serverMetrics) {
    }

    private static double auc(Run run) {
        Matcher auc = AUC.matcher(run.log);
        assertThat(auc.find()).as("AUC line in the worker log").isTrue();
        return Double.parseDouble(auc.group(1));
    }

    /** @return a per-table counter from server 0's Prometheus page */
    private static double counter(String metrics, String name, String table) {
        Matcher m = Pattern.compile("(?m)^" + name + "\\{[^}]*table=\"" + Pattern.quote(table) + "\"[^}]*} (\\S+)$")
                .matcher(metrics);
        assertThat(m.find()).as(name + " for " + table + " in\n" + metrics).isTrue();
        return Double.parseDouble(m.group(1));
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

    private static Run train(String name, String... settings) throws IOException {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("tables");
            Path model = cluster.logDir().resolve("model");
            cluster.startScheduler(2, 1);
            NodeProcess server = null;
            for (int s = 0; s < 2; s++) {
                NodeProcess started = cluster.startServer(s, 2, 1, "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=0.5", "--ps.consistency.mode=SYNC");
                server = server == null ? started : server;
            }
            List<String> args = new java.util.ArrayList<>(JOB);
            args.addAll(List.of(settings));
            args.add("--ps.worker.output.parameters-dir=" + out);
            args.add("--ps.worker.output.model-dir=" + model);
            NodeProcess worker = cluster.startWorker(0, 2, 1, args.toArray(String[]::new));
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail()).isZero();
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
            int serverHttp = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(5)).group(1));
            String metrics = LocalCluster.get(serverHttp, "/actuator/prometheus").orElse("");
            return new Run(out, model, worker.logText(), status, metrics);
        }
    }

    /** @return a table's rows by id, read from the {@code <table>.ids.npy} and {@code <table>.rows.npy} in {@code dir} */
    static Map<Long, float[]> read(Path dir, String table) {
        long[] ids = Nd4j.createFromNpyFile(dir.resolve(table + ".ids.npy").toFile()).toLongVector();
        org.nd4j.linalg.api.ndarray.INDArray rows = Nd4j.createFromNpyFile(dir.resolve(table + ".rows.npy").toFile());
        assertThat(rows.rows()).as(table + ": a row per id").isEqualTo(ids.length);
        Map<Long, float[]> byId = new LinkedHashMap<>();
        for (int i = 0; i < ids.length; i++) {
            byId.put(ids[i], rows.getRow(i).toFloatVector());
        }
        return byId;
    }
}

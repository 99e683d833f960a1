package io.jvmps.cluster;

import io.jvmps.client.dataset.MnistSplit;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LibSVM into a sparse table through 2 servers and 2 workers: the SPARSE_LINEAR job keeps a softmax's
 * weights as table rows, one per feature the training file uses (split over both servers), trains in SYNC,
 * and rank 0 exports the dense SOFTMAX graph that {@code predict} reads with SameDiff alone, finding the
 * count the job reported.
 */
class SparseLinearIT {
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final Pattern FINISHED = Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)");
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern TABLE_ROWS = Pattern.compile(
            "\"name\":\"linear.weights\",\"dim\":10,\"optimizer\":\"SGD[^\"]*\",\"rows\":(\\d+),\"bytes\":\\d+,\"pushes\":(\\d+)");

    @Test
    void libSvmTrainsATableOfWeightRowsAndItsExportPredictsTheReportedAccuracy() throws Exception {
        try (LocalCluster cluster = new LocalCluster("sparse-linear")) {
            Path files = cluster.freshDir("user-files");
            Path train = UserModelFiles.mnistLibSvm(files.resolve("train.svm"), MnistSplit.TRAIN, 3000);
            Path test = UserModelFiles.mnistLibSvm(files.resolve("test.svm"), MnistSplit.TEST, 500);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            NodeProcess[] servers = startServers(cluster, "SYNC");
            NodeProcess[] workers = startWorkers(cluster, train, test, export);
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(5))).as(worker.tail()).isZero();
                assertThat(worker.logText()).contains("Sparse linear job: 3000 training and 500 test examples, "
                        + "784 features, 10 classes");
            }
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("500");
            assertThat(Double.parseDouble(job.group(1))).isGreaterThanOrEqualTo(80.0);

            long rows = 0;
            for (NodeProcess server : servers) {
                int port = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(1)).group(1));
                String status = NodeProcess.poll("the server's status", Duration.ofSeconds(10),
                        () -> LocalCluster.get(port, "/api/v1/status"));
                Matcher table = TABLE_ROWS.matcher(status);
                assertThat(table.find()).as(status).isTrue();
                assertThat(Long.parseLong(table.group(1))).as("each server holds part of the table").isPositive();
                assertThat(Long.parseLong(table.group(2))).isPositive();
                rows += Long.parseLong(table.group(1));
            }
            assertThat(rows).as("one row per feature the training file uses, created by its first push")
                    .isEqualTo(featuresUsed(train));

            String manifest = Files.readString(export.resolve("model.json"));
            assertThat(manifest).contains("\"model\" : \"SOFTMAX\"", "\"data\" : \"LIBSVM\"", "\"inputSize\" : 784",
                    "\"testCorrect\" : " + job.group(2));
            Matcher predicted = PredictTool.run(cluster, "--model=" + export,
                    "--data-file=" + test);
            assertThat(predicted.group(2)).isEqualTo(job.group(2));
        }
    }

    /**
     * The same job in ASYNC mode with dynamic sharding: the workers lease the training file's partitions
     * from the scheduler, and the export still predicts what the job reported.
     */
    @Test
    void dynamicShardingLeasesTheFilesPartitionsInAsyncMode() throws Exception {
        try (LocalCluster cluster = new LocalCluster("sparse-linear-dynamic")) {
            Path files = cluster.freshDir("user-files");
            Path train = UserModelFiles.mnistLibSvm(files.resolve("train.svm"), MnistSplit.TRAIN, 3000);
            Path test = UserModelFiles.mnistLibSvm(files.resolve("test.svm"), MnistSplit.TEST, 500);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            startServers(cluster, "ASYNC");
            NodeProcess[] workers = startWorkers(cluster, train, test, export, "--ps.worker.dataset.sharding=DYNAMIC",
                    "--ps.worker.dataset.partitions=8");
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(5))).as(worker.tail()).isZero();
                assertThat(worker.logText()).contains("Dynamic data sharding: 8 partitions per epoch");
            }
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("500");
            assertThat(Double.parseDouble(job.group(1))).isGreaterThanOrEqualTo(80.0);
            Matcher predicted = PredictTool.run(cluster, "--model=" + export,
                    "--data-file=" + test);
            // in ASYNC each worker scores its shard after its own last step; the export is written once every
            // worker has reported, with the servers' final values, and records what those classify
            Matcher recorded = Pattern.compile("\"testCorrect\" : (\\d+)")
                    .matcher(Files.readString(export.resolve("model.json")));
            assertThat(recorded.find()).isTrue();
            assertThat(predicted.group(2)).isEqualTo(recorded.group(1));
        }
    }

    /** Starts the servers with SGD at 0.1 in the given consistency mode. */
    private static NodeProcess[] startServers(LocalCluster cluster, String mode) throws java.io.IOException {
        NodeProcess[] servers = new NodeProcess[SERVERS];
        for (int s = 0; s < SERVERS; s++) {
            servers[s] = cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=SGD",
                    "--ps.optimizer.learning-rate=0.1", "--ps.consistency.mode=" + mode);
        }
        return servers;
    }

    /** Starts the workers on the SPARSE_LINEAR job over the two LibSVM files, 2 epochs of batches of 32. */
    private static NodeProcess[] startWorkers(LocalCluster cluster, Path train, Path test, Path export,
                                              String... extra) throws java.io.IOException {
        NodeProcess[] workers = new NodeProcess[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--ps.worker.job=SPARSE_LINEAR",
                    "--ps.worker.dataset.format=LIBSVM", "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + test,
                    "--ps.worker.dataset.num-features=784", "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=2",
                    "--ps.worker.output.model-dir=" + export));
            args.addAll(java.util.List.of(extra));
            workers[w] = cluster.startWorker(w, SERVERS, WORKERS, args.toArray(String[]::new));
        }
        return workers;
    }

    /** @return the distinct feature indices of a LibSVM file */
    private static long featuresUsed(Path file) throws java.io.IOException {
        try (var lines = Files.lines(file)) {
            return lines.filter(line -> !line.startsWith("#"))
                    .flatMap(line -> java.util.Arrays.stream(line.split(" ")).skip(1))
                    .map(feature -> feature.substring(0, feature.indexOf(':')))
                    .distinct().count();
        }
    }
}

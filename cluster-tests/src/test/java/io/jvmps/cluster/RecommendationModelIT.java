package io.jvmps.cluster;

import io.jvmps.client.dataset.ColumnKind;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A user's recommendation model, as a project of its own ({@code examples/movielens}): a matrix factorisation of
 * MovieLens with the movies' genres as a multi-valued field, whose five embedding tables are on 2 servers, trained
 * on a fixed 80/20 split to a test RMSE of at most 0.86 by two workers of one job: the stock worker jar, given the
 * example's graph as a model file with its tables and CSV columns as settings, and the example's own program on the
 * library. Both read the ratings with the library's CSV reader (the two id columns as ids, the genres as hashed
 * ids, the rating as a real label) and train with the library's trainer. Mid-job one server is killed: its
 * replacement restores the tables' rows from the newest checkpoint and both workers roll back to it. The job
 * status's RMSE is the workers' summed errors', and the example's predictor, given only the files the stock worker
 * saved (a SameDiff graph with every bounded table a variable again, the hashed genre table's rows beside it as
 * NumPy files), scores the test set to the same RMSE, and so does the worker jar's {@code predict}.
 */
class RecommendationModelIT {
    private static final Pattern RESULT = Pattern.compile("RESULT sse=(\\S+) sae=(\\S+) n=(\\d+) steps=(\\d+)");
    private static final Pattern PREDICTED = Pattern.compile("PREDICTED rmse=(\\S+) mae=(\\S+) n=(\\d+)");
    private static final int MOVIES = 163_950;
    private static final int FACTORS = 32;
    private static final Pattern WORKER_RESULT = Pattern.compile("Test RMSE on this worker's shard: \\S+, MAE \\S+ "
            + "\\((\\d+) targets, squared error (\\S+)\\)");
    private static final int EPOCHS = 8;
    /** The example's tables (MovieLensTraining.TABLES), as the stock worker is told them. */
    private static final String TABLES = "userFactors,movieFactors,genreFactors:hashed:init=0:seed=0,"
            + "userBias:init=0:seed=0,movieBias:init=0:seed=0";

    @Test
    void aFactorisationWithItsTablesOnTheServersLearnsTheRatingsAndItsFileScoresTheSame() throws Exception {
        Path data = TestPaths.movielens();
        String classPath = TestPaths.exampleClassPath("movielens");
        try (LocalCluster cluster = new LocalCluster("recommendation-model")) {
            Path out = cluster.freshDir("model");
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(2, 2, "--ps.scheduler.heartbeat-timeout=5s",
                    "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.04",
                    "--ps.optimizer.initial-accumulator=0", "--ps.consistency.mode=SYNC",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms",
                    "--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=100"};
            NodeProcess[] servers = {cluster.startServer(0, 2, 2, serverArgs), cluster.startServer(1, 2, 2, serverArgs)};
            Path graphFile = cluster.freshDir("graph").resolve("ratings.sd");
            NodeProcess write = cluster.startProgram("write-graph", classPath, "com.example.movielens.MovieLensTraining",
                    "--write-graph=" + graphFile);
            assertThat(write.awaitExit(Duration.ofMinutes(1))).as(write.tail()).isZero();
            // the stock worker first, so it gets rank 0 and saves the model
            NodeProcess worker = cluster.startWorker(0, 2, 2, "--ps.worker.model=" + graphFile,
                    "--ps.worker.graph.tables=" + TABLES, "--ps.worker.graph.prediction=prediction",
                    "--ps.worker.dataset.format=CSV", "--ps.worker.dataset.train-file=" + data.resolve("ratings-train.csv"),
                    "--ps.worker.dataset.test-file=" + data.resolve("ratings-test.csv"),
                    "--ps.worker.dataset.csv.label=rating", "--ps.worker.dataset.csv.label-kind=REAL",
                    "--ps.worker.dataset.csv.columns=userId:ID,movieId:ID,genres:HASHED_IDS",
                    "--ps.worker.training.epochs=" + EPOCHS, "--ps.worker.training.batch-size=256",
                    "--ps.worker.training.seed=7", "--ps.worker.output.model-dir=" + out);
            worker.awaitLog(Pattern.compile("Worker registered as \\S+ with rank 0"), Duration.ofMinutes(2));
            NodeProcess program = cluster.startProgram("program", classPath, "com.example.movielens.MovieLensTraining",
                    "--scheduler=127.0.0.1:" + cluster.schedulerPort(), "--data=" + data, "--out=" + out,
                    "--epochs=" + EPOCHS);
            // mid-job, the server that got rank 1 is killed; a replacement restores its rows from the checkpoint
            program.awaitLog(Pattern.compile("step 450: loss"), Duration.ofMinutes(4));
            // the stock worker's own status page and metrics follow the library trainer's steps
            int workerHttp = Integer.parseInt(worker.awaitLog(Pattern.compile("Netty started on port (\\d+)"),
                    Duration.ofSeconds(1)).group(1));
            String training = NodeProcess.poll("the stock worker's status while it trains", Duration.ofSeconds(30),
                    () -> LocalCluster.get(workerHttp, "/api/v1/status").filter(s -> s.contains("\"phase\":\"TRAINING\"")
                            && !s.contains("\"globalStep\":0,")));
            assertThat(training).containsPattern("\"epoch\":[1-9]").containsPattern("\"bytesPushed\":[1-9]");
            assertThat(LocalCluster.get(workerHttp, "/actuator/prometheus").orElse(""))
                    .containsPattern("ps_worker_step_seconds_count(\\{[^}]*\\})? [1-9]");
            NodeProcess lost = NodeProcess.poll("the server of rank 1", Duration.ofSeconds(30), () -> java.util.Arrays
                    .stream(servers).filter(s -> s.logText().contains("Server rank 1 registered")).findFirst());
            lost.process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-replacement", 2, 2, serverArgs);
            assertThat(program.awaitExit(Duration.ofMinutes(8))).as(program.tail()).isZero();
            assertThat(worker.awaitExit(Duration.ofMinutes(2))).as(worker.tail()).isZero();
            Matcher result = RESULT.matcher(program.logText());
            assertThat(result.find()).as(program.tail()).isTrue();
            Matcher workerResult = WORKER_RESULT.matcher(worker.logText());
            assertThat(workerResult.find()).as(worker.tail()).isTrue();
            double squared = Double.parseDouble(result.group(1)) + Double.parseDouble(workerResult.group(2));
            long ratings = Long.parseLong(result.group(3)) + Long.parseLong(workerResult.group(1));
            assertThat(ratings).isEqualTo(20_000);
            assertThat(replacement.logText()).contains("Restored");
            for (NodeProcess node : new NodeProcess[] {program, worker}) {
                assertThat(node.logText()).as(node.name()).contains("Recovery 1 done: the servers are back at "
                        + "checkpoint step");
            }
            double rmse = Math.sqrt(squared / ratings);
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
            assertThat(status).contains("\"state\":\"FINISHED\"").contains("\"task\":\"REGRESSION\"");
            Matcher reported = Pattern.compile("\"rmse\":([0-9.]+)").matcher(status);
            assertThat(reported.find()).as(status).isTrue();
            assertThat(Double.parseDouble(reported.group(1))).isCloseTo(rmse, within(1e-6));
            double meanRmse = trainMean(data)[1];
            System.out.printf("MovieLens factorisation with genres on 2 servers x 2 workers: test RMSE %.4f (global "
                    + "mean %.4f)%n", rmse, meanRmse);
            assertThat(rmse).isLessThanOrEqualTo(0.86);
            assertThat(meanRmse).isGreaterThan(1.0);

            assertThat(out.resolve("ratings.sd")).as("only rank 0 saves").doesNotExist();
            SameDiff saved = SameDiff.load(out.resolve("model.sd").toFile(), false);
            assertThat(saved.getVariable("movieFactors").getArr().shape()).containsExactly(MOVIES, FACTORS);
            long[] genreIds = Nd4j.createFromNpyFile(out.resolve("genreFactors.ids.npy").toFile()).toLongVector();
            assertThat(genreIds).as("the hashed table's ids every server holds, ascending").isSorted();
            assertThat(genreIds.length).as("a row per genre: the padding after a movie's last genre makes none")
                    .isEqualTo(20);
            NodeProcess predict = cluster.startProgram("predict", classPath, "com.example.movielens.PredictRatings",
                    "--model=" + out.resolve("model.sd"), "--data=" + data);
            assertThat(predict.awaitExit(Duration.ofMinutes(2))).as(predict.tail()).isZero();
            Matcher predicted = PREDICTED.matcher(predict.logText());
            assertThat(predicted.find()).as(predict.tail()).isTrue();
            assertThat(Long.parseLong(predicted.group(3))).isEqualTo(20_000);
            assertThat(Double.parseDouble(predicted.group(1))).as("RMSE of the saved files alone")
                    .isCloseTo(rmse, within(1e-4));
            // the worker jar's predict reads the same files: the id columns feed the graph's placeholders
            Matcher tool = PredictTool.run(cluster, Pattern.compile("rmse: ([0-9.]+), mae: ([0-9.]+) \\((\\d+) targets\\)"),
                    "--model=" + out.resolve("model.sd"), "--data=CSV",
                    "--data-file=" + data.resolve("ratings-test.csv"), "--csv.label=rating", "--task=REGRESSION",
                    "--csv.columns=userId:ID,movieId:ID,genres:HASHED_IDS", "--prediction=prediction");
            assertThat(Long.parseLong(tool.group(3))).isEqualTo(20_000);
            assertThat(Double.parseDouble(tool.group(1))).as("predict's RMSE").isCloseTo(rmse, within(1e-4));
        }
    }

    /**
     * A rating factorisation a user saved as a file of their own, its loss a sum over the batch as plain SGD wants
     * it, trained by two stock workers with the servers in GEO: each worker trains the rows its batches read and
     * the dense scale locally for 10 steps, then pushes each row's change as a delta. Both end on one model, which
     * the job's RMSE, clearly below the global mean's, and {@code predict} on rank 0's file both show.
     */
    @Test
    void inGeoModeEachWorkerTrainsItsRowsLocallyAndTheirDeltasMeetOnTheServers() throws Exception {
        sumLossJob("recommendation-geo", "in GEO", new String[] {"--ps.consistency.mode=GEO",
                "--ps.consistency.geo-interval=10", "--ps.consistency.geo-learning-rate=0.01"},
                "in GEO mode from step 0");
    }

    /**
     * The same file in SYNC with each stock worker's embedding cache on: a cached row trains on the worker by plain
     * SGD at the servers' rate and goes back as a delta when evicted, every 50 steps (when each cache starts again,
     * reading the other worker's changes) and before the worker's last step, so the servers end with every worker's
     * changes: rank 0's file scores as the job did.
     */
    @Test
    void withTheEmbeddingCacheHotRowsTrainOnTheWorkersAndReachTheServers() throws Exception {
        sumLossJob("recommendation-cache", "with embedding caches", new String[] {"--ps.consistency.mode=SYNC",
                "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.01"},
                "Embedding cache on: 2048 rows of each table", "--ps.worker.graph.cache-rows=2048");
    }

    /**
     * Trains {@link #sumLossFactorisation} on 2 servers with {@code serverArgs} by two stock workers with
     * {@code workerArgs}; the job's RMSE must be 0.1 below the global mean's and {@code predict} on rank 0's file
     * must find it.
     *
     * @param logged what each worker must have logged
     */
    private static void sumLossJob(String name, String what, String[] serverArgs, String logged, String... workerArgs)
            throws Exception {
        Path data = TestPaths.movielens();
        double[] mean = trainMean(data);
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.freshDir("model");
            Path graphFile = sumLossFactorisation(cluster.freshDir("graph").resolve("mf.sd"), (float) mean[0]);
            cluster.startScheduler(2, 2);
            cluster.startServer(0, 2, 2, serverArgs);
            cluster.startServer(1, 2, 2, serverArgs);
            double rmse = trainStockWorkers(cluster, data, graphFile, out, logged, workerArgs);
            System.out.printf("MovieLens factorisation %s on 2 servers x 2 stock workers: test RMSE %.4f (global "
                    + "mean %.4f)%n", what, rmse, mean[1]);
            assertThat(rmse).as("the rows learnt").isLessThan(mean[1] - 0.1);
            assertPredicted(cluster, data, out, rmse);
        }
    }

    /**
     * Runs two stock workers on {@code graphFile} (3 epochs) and waits for them.
     *
     * @param logged what each must have logged
     * @return the job's test RMSE from the workers' summed errors
     */
    private static double trainStockWorkers(LocalCluster cluster, Path data, Path graphFile, Path out, String logged,
                                            String... extra) throws java.io.IOException {
        NodeProcess[] workers = new NodeProcess[2];
        for (int w = 0; w < 2; w++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--ps.worker.model=" + graphFile,
                    "--ps.worker.graph.tables=userFactors,movieFactors,userBias:init=0,movieBias:init=0",
                    "--ps.worker.graph.prediction=prediction", "--ps.worker.dataset.format=CSV",
                    "--ps.worker.dataset.train-file=" + data.resolve("ratings-train.csv"),
                    "--ps.worker.dataset.test-file=" + data.resolve("ratings-test.csv"),
                    "--ps.worker.dataset.csv.label=rating", "--ps.worker.dataset.csv.label-kind=REAL",
                    "--ps.worker.dataset.csv.columns=userId:ID,movieId:ID,genres:SKIP",
                    "--ps.worker.training.epochs=3", "--ps.worker.training.batch-size=256",
                    "--ps.worker.output.model-dir=" + out));
            args.addAll(java.util.List.of(extra));
            workers[w] = cluster.startWorker(w, 2, 2, args.toArray(String[]::new));
        }
        double squared = 0;
        long ratings = 0;
        for (NodeProcess worker : workers) {
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.tail()).isZero();
            assertThat(worker.logText()).contains(logged);
            Matcher result = WORKER_RESULT.matcher(worker.logText());
            assertThat(result.find()).as(worker.tail()).isTrue();
            ratings += Long.parseLong(result.group(1));
            squared += Double.parseDouble(result.group(2));
        }
        assertThat(ratings).isEqualTo(20_000);
        String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
        assertThat(status).contains("\"state\":\"FINISHED\"").contains("\"task\":\"REGRESSION\"");
        return Math.sqrt(squared / ratings);
    }

    /** {@code predict} on rank 0's file gives the job's RMSE: the workers ended on one model, all of it saved. */
    private static void assertPredicted(LocalCluster cluster, Path data, Path out, double rmse)
            throws java.io.IOException {
        Matcher tool = PredictTool.run(cluster, Pattern.compile("rmse: ([0-9.]+), mae: ([0-9.]+) \\((\\d+) targets\\)"),
                "--model=" + out.resolve("model.sd"), "--data=CSV",
                "--data-file=" + data.resolve("ratings-test.csv"), "--csv.label=rating", "--task=REGRESSION",
                "--csv.columns=userId:ID,movieId:ID,genres:SKIP", "--prediction=prediction");
        assertThat(Double.parseDouble(tool.group(1))).as("one model: rank 0's file scores as both workers did")
                .isCloseTo(rmse, within(1e-4));
    }

    /**
     * {@code prediction = mean + scale * (userFactors[u] . movieFactors[m]) + userBias[u] + movieBias[m]}, dim 8,
     * the loss the batch's summed squared errors plus 0.02 times the squared rows read; {@code mean} a constant,
     * {@code scale} the dense parameter.
     */
    private static Path sumLossFactorisation(Path file, float mean) {
        SameDiff sd = SameDiff.create();
        var user = sd.placeHolder("userId", DataType.INT64, -1);
        var movie = sd.placeHolder("movieId", DataType.INT64, -1);
        var label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        var p = sd.gather(sd.var("userFactors", Nd4j.zeros(DataType.FLOAT, 672, 8)), user, 0);
        var q = sd.gather(sd.var("movieFactors", Nd4j.zeros(DataType.FLOAT, MOVIES, 8)), movie, 0);
        var bu = sd.gather(sd.var("userBias", Nd4j.zeros(DataType.FLOAT, 672, 1)), user, 0);
        var bm = sd.gather(sd.var("movieBias", Nd4j.zeros(DataType.FLOAT, MOVIES, 1)), movie, 0);
        var scale = sd.var("scale", Nd4j.ones(DataType.FLOAT, 1, 1));
        var prediction = p.mul(q).sum(true, 1).mul(scale).add(bu).add(bm).add(sd.constant(mean)).rename("prediction");
        var error = prediction.sub(label);
        var penalty = p.mul(p).sum(true, 1).add(q.mul(q).sum(true, 1)).add(bu.mul(bu)).add(bm.mul(bm)).mul(0.02);
        error.mul(error).add(penalty).sum().rename("loss");
        sd.save(file.toFile(), false);
        return file;
    }

    /** @return the training ratings' mean, and the test RMSE of predicting every rating by it */
    private static double[] trainMean(Path data) {
        CsvFormat format = CsvFormat.of("rating", true, ",").withLabel(LabelKind.REAL)
                .withColumn("userId", ColumnKind.SKIP).withColumn("movieId", ColumnKind.SKIP)
                .withColumn("genres", ColumnKind.SKIP);
        CsvFile train = CsvFile.open(data.resolve("ratings-train.csv"), format, 0);
        CsvFile test = CsvFile.open(data.resolve("ratings-test.csv"), format, 0);
        double mean = train.rows(0, train.size()).labels().meanNumber().doubleValue();
        INDArray off = test.rows(0, test.size()).labels().castTo(DataType.DOUBLE).sub(mean);
        return new double[] {mean, Math.sqrt(off.mul(off).sumNumber().doubleValue() / test.size())};
    }

}

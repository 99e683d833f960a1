package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A user's recommendation model on the library ({@link RatingsProgram}): a matrix factorisation of MovieLens whose
 * four embedding tables are on 2 servers, trained by 2 programs on a fixed 80/20 split (the library's CSV reader
 * takes the two id columns as ids and the rating as a real label). Mid-job one server is killed: its replacement
 * restores the tables' rows from the newest checkpoint and the programs roll back to it. The workers' test errors
 * add up to an RMSE far below the global mean's, and the file rank 0 saved is an ordinary SameDiff graph, every
 * bounded table a variable again and the hashed one's rows beside it as NumPy files, which {@code SameDiff.load}
 * and nd4j alone score to the same RMSE.
 */
class RecommendationModelIT {
    private static final Pattern RESULT = Pattern.compile("RESULT sse=(\\S+) sae=(\\S+) n=(\\d+) steps=(\\d+)");

    @Test
    void aFactorisationWithItsTablesOnTheServersLearnsTheRatingsAndItsFileScoresTheSame() throws Exception {
        Path data = TestPaths.movielens();
        try (LocalCluster cluster = new LocalCluster("recommendation-model")) {
            Path out = cluster.freshDir("model");
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(2, 2, "--ps.scheduler.heartbeat-timeout=5s",
                    "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.03",
                    "--ps.optimizer.initial-accumulator=0", "--ps.consistency.mode=SYNC",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms",
                    "--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=100"};
            NodeProcess[] servers = {cluster.startServer(0, 2, 2, serverArgs), cluster.startServer(1, 2, 2, serverArgs)};
            NodeProcess[] programs = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                programs[w] = cluster.startProgram("program-" + w, System.getProperty("java.class.path"),
                        RatingsProgram.class.getName(), "127.0.0.1:" + cluster.schedulerPort(), data.toString(), "10",
                        out.toString());
            }
            // mid-job, the server that got rank 1 is killed; a replacement restores its rows from the checkpoint
            programs[0].awaitLog(Pattern.compile("step 450: loss"), Duration.ofMinutes(4));
            NodeProcess lost = NodeProcess.poll("the server of rank 1", Duration.ofSeconds(30), () -> java.util.Arrays
                    .stream(servers).filter(s -> s.logText().contains("Server rank 1 registered")).findFirst());
            lost.process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-replacement", 2, 2, serverArgs);
            double squared = 0;
            long ratings = 0;
            for (NodeProcess program : programs) {
                assertThat(program.awaitExit(Duration.ofMinutes(8))).as(program.tail()).isZero();
                Matcher result = RESULT.matcher(program.logText());
                assertThat(result.find()).as(program.tail()).isTrue();
                squared += Double.parseDouble(result.group(1));
                ratings += Long.parseLong(result.group(3));
            }
            assertThat(ratings).isEqualTo(20_000);
            assertThat(replacement.logText()).contains("Restored");
            assertThat(programs[0].logText()).contains("Recovery 1 done: the servers are back at checkpoint step");
            double rmse = Math.sqrt(squared / ratings);
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
            assertThat(status).contains("\"state\":\"FINISHED\"").contains("\"task\":\"REGRESSION\"");
            Matcher reported = Pattern.compile("\"rmse\":([0-9.]+)").matcher(status);
            assertThat(reported.find()).as(status).isTrue();
            assertThat(Double.parseDouble(reported.group(1))).isCloseTo(rmse, within(1e-6));
            var train = RatingsProgram.ratings(data.resolve("ratings-train.csv")).rows(0, 80_004);
            var test = RatingsProgram.ratings(data.resolve("ratings-test.csv")).rows(0, 20_000);
            double mean = train.labels().meanNumber().doubleValue();
            INDArray off = test.labels().castTo(DataType.DOUBLE).sub(mean);
            double meanRmse = Math.sqrt(off.mul(off).sumNumber().doubleValue() / ratings);
            System.out.printf("MovieLens factorisation on 2 servers x 2 workers: test RMSE %.4f (global mean %.4f)%n",
                    rmse, meanRmse);
            assertThat(rmse).isLessThan(0.88);
            assertThat(meanRmse).isGreaterThan(1.0);

            SameDiff saved = SameDiff.load(out.resolve("ratings.sd").toFile(), false);
            assertThat(saved.getVariable("movieFactors").getArr().shape()).containsExactly(RatingsProgram.MOVIES,
                    RatingsProgram.FACTORS);
            // the hashed table comes as its rows beside the graph: the ids every server holds, ascending, and a row each
            long[] ids = Nd4j.createFromNpyFile(out.resolve("movieBias.ids.npy").toFile()).toLongVector();
            INDArray rows = Nd4j.createFromNpyFile(out.resolve("movieBias.rows.npy").toFile());
            assertThat(ids.length).isBetween(8_000, 9_066);
            assertThat(ids).isSorted();
            assertThat(rows.shape()).containsExactly(ids.length, 1);
            INDArray movieBias = Nd4j.zeros(DataType.FLOAT, RatingsProgram.MOVIES, 1);
            for (int i = 0; i < ids.length; i++) {
                movieBias.putScalar(ids[i], 0, rows.getFloat(i, 0));
            }
            saved.getVariable("movieBias").setArray(movieBias);
            INDArray predicted = saved.output(Map.of("userId", test.ids().get("userId"),
                    "movieId", test.ids().get("movieId")),
                    "prediction").get("prediction");
            INDArray error = predicted.castTo(DataType.DOUBLE).sub(test.labels().castTo(DataType.DOUBLE));
            double fileRmse = Math.sqrt(error.mul(error).sumNumber().doubleValue() / ratings);
            assertThat(fileRmse).isCloseTo(rmse, within(1e-4));
        }
    }
}

package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A user's recommendation model on the library ({@link RatingsProgram}): a matrix factorisation of MovieLens whose
 * four embedding tables are on 2 servers, trained by 2 programs on a fixed 80/20 split. The workers' test errors add
 * up to an RMSE far below the global mean's, and the file rank 0 saved is an ordinary SameDiff graph, every table a
 * variable again, which {@code SameDiff.load} alone scores to the same RMSE.
 */
class RecommendationModelIT {
    private static final Pattern RESULT = Pattern.compile("RESULT sse=(\\S+) sae=(\\S+) n=(\\d+) steps=(\\d+)");

    @Test
    void aFactorisationWithItsTablesOnTheServersLearnsTheRatingsAndItsFileScoresTheSame() throws Exception {
        Path data = TestPaths.movielens();
        try (LocalCluster cluster = new LocalCluster("recommendation-model")) {
            Path out = cluster.freshDir("model");
            cluster.startScheduler(2, 2);
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.03",
                    "--ps.optimizer.initial-accumulator=0", "--ps.consistency.mode=SYNC"};
            cluster.startServer(0, 2, 2, serverArgs);
            cluster.startServer(1, 2, 2, serverArgs);
            NodeProcess[] programs = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                programs[w] = cluster.startProgram("program-" + w, System.getProperty("java.class.path"),
                        RatingsProgram.class.getName(), "127.0.0.1:" + cluster.schedulerPort(), data.toString(), "10",
                        out.toString());
            }
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
            double rmse = Math.sqrt(squared / ratings);
            var train = RatingsProgram.ratings(data.resolve("ratings-train.csv"));
            var test = RatingsProgram.ratings(data.resolve("ratings-test.csv"));
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
            INDArray predicted = saved.output(Map.of("user", test.ids().get("user"), "movie", test.ids().get("movie")),
                    "prediction").get("prediction");
            INDArray error = predicted.castTo(DataType.DOUBLE).sub(test.labels().castTo(DataType.DOUBLE));
            double fileRmse = Math.sqrt(error.mul(error).sumNumber().doubleValue() / ratings);
            assertThat(fileRmse).isCloseTo(rmse, within(1e-4));
        }
    }
}

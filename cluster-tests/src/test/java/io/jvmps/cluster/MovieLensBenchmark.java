package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MovieLens model of {@code examples/movielens} trained for {@code -Dmovielens.epochs} (default 1) epochs by 2
 * programs through 2 servers (SYNC, Adagrad at 0.04), against the same model and settings in one process
 * ({@link OneProcessFactorisation}), in one run: each one's training seconds and test RMSE.
 */
@Tag("benchmark")
class MovieLensBenchmark {
    private static final Pattern RESULT = Pattern.compile(
            "RESULT sse=(\\S+) sae=\\S+ n=(\\d+) steps=(\\d+) rmse=\\S+ seconds=([0-9.]+) pull=([0-9.]+) "
                    + "compute=([0-9.]+) push=([0-9.]+)");

    @Test
    void twoServersAndTwoWorkersAgainstOneProcess() throws Exception {
        int epochs = Integer.getInteger("movielens.epochs", 1);
        Path data = TestPaths.movielens();
        String classPath = TestPaths.exampleClassPath("movielens");
        double clusterSeconds = 0;
        double squared = 0;
        long ratings = 0;
        long steps = 0;
        double[] phases = new double[3]; // pull, compute, push: summed over the programs
        try (LocalCluster cluster = new LocalCluster("movielens-bench")) {
            Path out = cluster.freshDir("model");
            cluster.startScheduler(2, 2);
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.04",
                    "--ps.optimizer.initial-accumulator=0", "--ps.consistency.mode=SYNC"};
            cluster.startServer(0, 2, 2, serverArgs);
            cluster.startServer(1, 2, 2, serverArgs);
            NodeProcess[] programs = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                programs[w] = cluster.startProgram("program-" + w, classPath, "com.example.movielens.MovieLensTraining",
                        "--scheduler=127.0.0.1:" + cluster.schedulerPort(), "--data=" + data, "--out=" + out,
                        "--epochs=" + epochs);
            }
            for (NodeProcess program : programs) {
                assertThat(program.awaitExit(Duration.ofMinutes(10))).as(program.tail()).isZero();
                Matcher result = RESULT.matcher(program.logText());
                assertThat(result.find()).as(program.tail()).isTrue();
                squared += Double.parseDouble(result.group(1));
                ratings += Long.parseLong(result.group(2));
                steps = Math.max(steps, Long.parseLong(result.group(3)));
                clusterSeconds = Math.max(clusterSeconds, Double.parseDouble(result.group(4)));
                for (int p = 0; p < 3; p++) {
                    phases[p] += Double.parseDouble(result.group(5 + p)) / programs.length;
                }
            }
        }
        double clusterRmse = Math.sqrt(squared / ratings);

        OneProcessFactorisation alone = new OneProcessFactorisation(data);
        long start = System.nanoTime();
        for (int e = 0; e < epochs; e++) {
            alone.epoch(7 + e);
        }
        double aloneSeconds = (System.nanoTime() - start) / 1e9;
        double aloneRmse = alone.testRmse();
        BenchmarkReport.record(String.format(Locale.ROOT, "MovieLens factorisation with genres, %d epoch(s): 2 servers "
                        + "x 2 workers %.1f s (%d steps each, %.1f ms/step), test RMSE %.4f; one process (plain Java) "
                        + "%.1f s, test RMSE %.4f; time ratio %.1fx; a program's step: pull+wait %.1f ms, compute "
                        + "%.1f ms, push %.1f ms (the parameter server's share %.0f %%)", epochs, clusterSeconds, steps,
                1000 * clusterSeconds / steps, clusterRmse, aloneSeconds, aloneRmse, clusterSeconds / aloneSeconds,
                1000 * phases[0] / steps, 1000 * phases[1] / steps, 1000 * phases[2] / steps,
                100 * (phases[0] + phases[2]) / (phases[0] + phases[1] + phases[2])));
        assertThat(clusterRmse).isLessThan(1.0);
        assertThat(aloneRmse).isLessThan(1.0);
    }
}

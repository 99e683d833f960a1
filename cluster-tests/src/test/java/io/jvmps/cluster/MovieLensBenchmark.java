package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    /**
     * The same model on the client's raw sparse API ({@link RawApiFactorisation}), as a user's own loop would be: 2
     * workers (threads of this JVM, each joined with {@code PsJob} and its own connections) train their halves of
     * each epoch through 2 servers, rows only, no barrier; against {@link OneProcessFactorisation} in the same run.
     */
    @Test
    void rawSparseApiAgainstOneProcess() throws Exception {
        int epochs = Integer.getInteger("movielens.epochs", 1);
        OneProcessFactorisation alone = new OneProcessFactorisation(TestPaths.movielens());
        RawApiFactorisation[] models = {new RawApiFactorisation(alone), new RawApiFactorisation(alone)};
        double seconds;
        double warmSeconds;
        double rmse;
        try (LocalCluster cluster = new LocalCluster("movielens-raw")) {
            cluster.startScheduler(2, 2);
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.04",
                    "--ps.optimizer.initial-accumulator=0"};
            cluster.startServer(0, 2, 2, serverArgs);
            cluster.startServer(1, 2, 2, serverArgs);
            io.jvmps.client.ClientSettings settings = io.jvmps.client.ClientSettings.of("127.0.0.1",
                    cluster.schedulerPort(), cluster.secret());
            java.util.concurrent.CyclicBarrier ready = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                List<java.util.concurrent.Future<double[]>> runs = new java.util.ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    RawApiFactorisation model = models[w];
                    runs.add(pool.submit(() -> {
                        try (io.jvmps.client.PsJob job = io.jvmps.client.PsJob.join(settings)) {
                            job.declareTables(RawApiFactorisation.tables());
                            io.jvmps.client.data.SparseClient sparse = job.sparse();
                            ready.await(5, java.util.concurrent.TimeUnit.MINUTES); // both joined: the clock starts
                            long start = System.nanoTime();
                            long afterFirst = start;
                            for (int e = 0; e < epochs; e++) {
                                model.epoch(sparse, 7 + e, job.rank(), job.workers());
                                afterFirst = e == 0 ? System.nanoTime() : afterFirst;
                            }
                            long end = System.nanoTime();
                            double took = (end - start) / 1e9;
                            double warm = (end - afterFirst) / 1e9; // every epoch but the first (JIT warm-up)
                            ready.await(5, java.util.concurrent.TimeUnit.MINUTES); // both done: the rows are final
                            double score = job.rank() == 0 ? model.testRmse(sparse) : Double.NaN;
                            return new double[] {took, score, warm};
                        }
                    }));
                }
                double[] first = runs.get(0).get(10, java.util.concurrent.TimeUnit.MINUTES);
                double[] second = runs.get(1).get(10, java.util.concurrent.TimeUnit.MINUTES);
                seconds = Math.max(first[0], second[0]);
                warmSeconds = Math.max(first[2], second[2]);
                rmse = Double.isNaN(first[1]) ? second[1] : first[1];
            } finally {
                pool.shutdownNow();
            }
        }
        long start = System.nanoTime();
        long afterFirst = start;
        for (int e = 0; e < epochs; e++) {
            alone.epoch(7 + e);
            afterFirst = e == 0 ? System.nanoTime() : afterFirst;
        }
        long end = System.nanoTime();
        double aloneSeconds = (end - start) / 1e9;
        double aloneWarm = (end - afterFirst) / 1e9;
        BenchmarkReport.record(String.format(Locale.ROOT, "MovieLens factorisation with genres on the raw sparse API, "
                        + "%d epoch(s): 2 servers x 2 workers %.2f s, test RMSE %.4f; one process (plain Java) %.2f s, "
                        + "test RMSE %.4f; time ratio %.1fx; after the first epoch %.2f s against %.2f s, ratio %.1fx; "
                        + "worker 0's pulls %.2f s, computation %.2f s, pushes %.2f s",
                epochs, seconds, rmse, aloneSeconds, alone.testRmse(), seconds / aloneSeconds, warmSeconds, aloneWarm,
                warmSeconds / aloneWarm,
                models[0].phaseSeconds()[0], models[0].phaseSeconds()[1], models[0].phaseSeconds()[2]));
        assertThat(rmse).isLessThan(1.0);
    }
}

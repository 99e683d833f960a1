package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A click model of one's own on Criteo-format files ({@link CriteoClickProgram}, 26 hashed tables) trained by 2
 * programs through 2 servers, SYNC, Adagrad: the job status's test AUC (the workers' merged histograms) against the
 * oracle AUC of the generator that wrote the files, in one run. {@code -Dclicks.train} (default 100000),
 * {@code -Dclicks.epochs} (default 2), {@code -Dclicks.rate} (default 0.05), {@code -Dclicks.l2} (default 0.01), {@code -Dclicks.vocabulary} (values per field, default 100), {@code -Dclicks.crosses} (crossed pairs in the truth, default 3), {@code -Dclicks.crossRank} (their weights' rank, 0 = a weight per pair of values; default 0).
 */
@Tag("benchmark")
class CriteoClickBenchmark {
    private static final Pattern ORACLE = Pattern.compile("oracle test AUC ([0-9.]+)");
    private static final Pattern RESULT = Pattern.compile("RESULT auc=\\S+ logloss=\\S+ n=(\\d+) steps=(\\d+) seconds=([0-9.]+)");

    @Test
    void aucOfADeepFmOnTheServersAgainstTheOracle() throws Exception {
        String train = System.getProperty("clicks.train", "100000");
        String epochs = System.getProperty("clicks.epochs", "2");
        String rate = System.getProperty("clicks.rate", "0.05");
        String l2 = System.getProperty("clicks.l2", "0.01");
        String vocabulary = System.getProperty("clicks.vocabulary", "100");
        String crosses = System.getProperty("clicks.crosses", "3");
        String crossRank = System.getProperty("clicks.crossRank", "0");
        try (LocalCluster cluster = new LocalCluster("criteo-clicks")) {
            Path data = cluster.freshDir("clicks");
            NodeProcess generator = cluster.startTool("clicks", "worker-service", "clicks", "--out=" + data,
                    "--train=" + train, "--test=20000", "--vocabulary=" + vocabulary, "--crosses=" + crosses, "--cross-rank=" + crossRank);
            assertThat(generator.awaitExit(Duration.ofMinutes(2))).as(generator.tail()).isZero();
            Matcher oracle = ORACLE.matcher(Files.readString(data.resolve("oracle.txt")));
            assertThat(oracle.find()).isTrue();
            cluster.startScheduler(2, 2);
            String[] serverArgs = {"--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=" + rate,
                    "--ps.optimizer.initial-accumulator=0", "--ps.consistency.mode=SYNC"};
            cluster.startServer(0, 2, 2, serverArgs);
            cluster.startServer(1, 2, 2, serverArgs);
            NodeProcess[] programs = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                programs[w] = cluster.startProgram("program-" + w, System.getProperty("java.class.path"),
                        CriteoClickProgram.class.getName(), "127.0.0.1:" + cluster.schedulerPort(), data.toString(),
                        epochs, l2);
            }
            double seconds = 0;
            long steps = 0;
            for (NodeProcess program : programs) {
                assertThat(program.awaitExit(Duration.ofMinutes(20))).as(program.tail()).isZero();
                Matcher result = RESULT.matcher(program.logText());
                assertThat(result.find()).as(program.tail()).isTrue();
                steps = Math.max(steps, Long.parseLong(result.group(2)));
                seconds = Math.max(seconds, Double.parseDouble(result.group(3)));
            }
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow(() -> new AssertionError("no job status"));
            Matcher auc = Pattern.compile("\"auc\":([0-9.]+)").matcher(status);
            assertThat(auc.find()).as(status).isTrue();
            Matcher logLoss = Pattern.compile("\"logLoss\":([0-9.]+)").matcher(status);
            assertThat(logLoss.find()).as(status).isTrue();
            double jobAuc = Double.parseDouble(auc.group(1));
            double oracleAuc = Double.parseDouble(oracle.group(1));
            BenchmarkReport.record(String.format(Locale.ROOT, "DeepFM on Criteo-format clicks, 26 hashed tables of %s "
                            + "values, %s crosses of rank %s, %s examples, %s epochs, ADAGRAD %s, L2 %s, 2 servers x 2 workers: job test AUC %.4f, log loss %.4f; "
                            + "oracle AUC %.4f, gap %.4f (%d steps each, %.1f s, %.1f ms/step)", vocabulary, crosses, crossRank, train, epochs, rate, l2,
                    jobAuc, Double.parseDouble(logLoss.group(1)), oracleAuc, oracleAuc - jobAuc, steps, seconds,
                    1000 * seconds / steps));
            assertThat(jobAuc).isGreaterThan(0.6);
        }
    }
}

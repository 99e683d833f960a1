package io.jvmps.worker.ctr;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code clicks}: writes a synthetic click data set in the Criteo layout ({@link CriteoFile}), a training and a test
 * file drawn from one hidden ground truth ({@link ClickDataSpec}: 26 fields, Zipf-distributed values, crossed
 * pairs), and {@code oracle.txt} with the AUC of the true probabilities on the test file: the best AUC a model of
 * that data can expect. Arguments are {@code --name=value}; see {@link #USAGE}. Stateless; one run per call.
 */
public final class ClicksCommand {
    /** The command's name, the first argument of the worker's jar. */
    public static final String NAME = "clicks";
    static final String USAGE = """
            usage: java -jar worker-service-<version>-exec.jar clicks --out=DIR [options]
              --out=DIR          where train.tsv, test.tsv and oracle.txt go (created if missing)
              --train=N          training examples (default 100000)
              --test=N           test examples (default 20000)
              --vocabulary=N     values per field (default 1000)
              --zipf=S           Zipf exponent of the values' frequencies (default 1.05)
              --crosses=N        crossed field pairs in the ground truth, 0..13 (default 3)
              --cross-rank=K     0: a weight per pair of values; K in 1..64: pair weights of rank K,
                                 the structure factorisation machines learn (default 0)
              --seed=N           seed of the ground truth and the examples (default 7)
            """;
    /** A value's hidden weight: 26 of them add up to a logit spread like the crossed pairs'. */
    private static final double WEIGHT_SIGMA = 0.25;
    private static final double CROSS_SIGMA = 0.8;
    /** The base logit: about one click in four. */
    private static final double BIAS = -1.5;
    private static final Set<String> OPTIONS = Set.of("out", "train", "test", "vocabulary", "zipf", "crosses", "cross-rank", "seed");

    private ClicksCommand() {
    }

    /**
     * @param args {@code --name=value} options
     * @param out  where the result goes
     * @param err  where errors and the usage go
     * @return the exit code: 0 done, 2 bad arguments, 1 a file that cannot be written
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options;
        ClickDataSpec spec;
        int train;
        int test;
        try {
            options = parse(args);
            if (options.containsKey("help")) {
                out.print(USAGE);
                return 0;
            }
            if (!options.containsKey("out")) {
                throw new IllegalArgumentException("--out is missing");
            }
            spec = new ClickDataSpec(CriteoFile.CATEGORIES, number(options, "vocabulary", 1000),
                    Double.parseDouble(options.getOrDefault("zipf", "1.05")), number(options, "crosses", 3), WEIGHT_SIGMA,
                    CROSS_SIGMA, BIAS, Long.parseLong(options.getOrDefault("seed", "7")), number(options, "cross-rank", 0));
            train = number(options, "train", 100_000);
            test = number(options, "test", 20_000);
            if (train < 1 || test < 2) {
                throw new IllegalArgumentException("--train must be >= 1 and --test >= 2, got " + train + " and " + test);
            }
        } catch (IllegalArgumentException e) {
            err.println("clicks: " + e.getMessage() + "\n" + USAGE);
            return 2;
        }
        Path dir = Path.of(options.get("out"));
        try {
            Files.createDirectories(dir);
            ClickData testData = ClickData.generate(spec, test, 1);
            CriteoFile.write(ClickData.generate(spec, train, 0), dir.resolve("train.tsv"));
            CriteoFile.write(testData, dir.resolve("test.tsv"));
            String oracle = String.format(Locale.ROOT, "oracle test AUC %.4f (click rate %.4f, %d test examples)%n",
                    testData.oracleAuc(), testData.clickRate(), test);
            Files.writeString(dir.resolve("oracle.txt"), oracle);
            out.print("wrote " + dir.resolve("train.tsv") + " (" + train + " examples), " + dir.resolve("test.tsv")
                    + " (" + test + "); " + oracle);
            return 0;
        } catch (IOException e) {
            err.println("clicks: cannot write to " + dir + ": " + e.getMessage());
            return 1;
        }
    }

    private static int number(Map<String, String> options, String name, int fallback) {
        String value = options.get(name);
        try {
            return value == null ? fallback : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + value + "'");
        }
    }

    private static Map<String, String> parse(String[] args) {
        return io.jvmps.worker.command.CommandOptions.parse(args, OPTIONS, "");
    }
}

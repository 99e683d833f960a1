package io.jvmps.cluster;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The worker jar's {@code predict} command as a user runs it: a process of its own, its printed result read. */
final class PredictTool {
    private static final Pattern PREDICTED = Pattern.compile("accuracy: ([0-9.]+) \\((\\d+)/(\\d+)\\)");

    private PredictTool() {
    }

    /**
     * Runs {@code predict} and checks it exits 0.
     *
     * @param args its options, e.g. {@code --model=DIR}, {@code --data-file=F}
     * @return its result line: group 1 the accuracy, 2 the correct examples, 3 the examples
     */
    static Matcher run(LocalCluster cluster, String... args) throws java.io.IOException {
        return find(PREDICTED, output(cluster, args));
    }

    /**
     * Runs {@code predict} and checks it exits 0.
     *
     * @param result the result line it must print, e.g. {@code rmse: ([0-9.]+)}
     * @return that line's match
     */
    static Matcher run(LocalCluster cluster, Pattern result, String... args) throws java.io.IOException {
        return find(result, output(cluster, args));
    }

    private static Matcher find(Pattern result, String output) {
        Matcher predicted = result.matcher(output);
        assertThat(predicted.find()).as(output).isTrue();
        return predicted;
    }

    private static String output(LocalCluster cluster, String... args) throws java.io.IOException {
        String[] command = new String[args.length + 1];
        command[0] = "predict";
        System.arraycopy(args, 0, command, 1, args.length);
        NodeProcess predict = cluster.startTool("predict", "worker-service", command);
        assertThat(predict.awaitExit(Duration.ofMinutes(2))).as(predict.tail()).isZero();
        return predict.logText();
    }
}

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
        String[] command = new String[args.length + 1];
        command[0] = "predict";
        System.arraycopy(args, 0, command, 1, args.length);
        NodeProcess predict = cluster.startTool("predict", "worker-service", command);
        assertThat(predict.awaitExit(Duration.ofMinutes(2))).as(predict.tail()).isZero();
        Matcher predicted = PREDICTED.matcher(predict.logText());
        assertThat(predicted.find()).as(predict.logText()).isTrue();
        return predicted;
    }
}

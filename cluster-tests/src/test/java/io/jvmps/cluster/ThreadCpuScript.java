package io.jvmps.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code scripts/thread-cpu.sh} and reads its table. */
final class ThreadCpuScript {
    private static final Pattern ROW = Pattern.compile(
            "(?m)^(\\S+)\\s+(\\S+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+(\\d+)\\s+(\\d+)$");

    /** One line of the table: a node, a thread name, its CPU and run-queue wait in ms per second. */
    record Row(String node, String threads, int count, double cpu, double waited) {
    }

    /** The script's exit status and everything it printed (stdout and stderr). */
    record Result(int exit, String output) {
        List<Row> rows() {
            List<Row> rows = new ArrayList<>();
            Matcher m = ROW.matcher(output);
            while (m.find()) {
                rows.add(new Row(m.group(1), m.group(2), Integer.parseInt(m.group(3)), Double.parseDouble(m.group(4)),
                        Double.parseDouble(m.group(5))));
            }
            return rows;
        }
    }

    private ThreadCpuScript() {
    }

    /** Runs the script with {@code args}, giving it a minute. */
    static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(TestPaths.repo().resolve("scripts/thread-cpu.sh").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("scripts/thread-cpu.sh " + String.join(" ", args) + " did not end within 60 s");
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }
}

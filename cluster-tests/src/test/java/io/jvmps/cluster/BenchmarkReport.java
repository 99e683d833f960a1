package io.jvmps.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/** Prints a benchmark line and appends it to {@code target/benchmarks/results.md}. */
final class BenchmarkReport {
    private BenchmarkReport() {
    }

    static void record(String line) throws IOException {
        System.out.println("[benchmark] " + line);
        Path file = Path.of("target", "benchmarks", "results.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "- " + Instant.now() + " " + line + System.lineSeparator(),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

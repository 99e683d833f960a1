package io.jvmps.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/** Prints a drill's verdict and table and appends them to {@code target/drills/results.md}. */
final class DrillReport {
    private DrillReport() {
    }

    /**
     * @param verdict one line: what ran and how it ended
     * @param rows    Markdown table rows ({@code | ... |}), printed under the verdict
     */
    static void record(String verdict, List<String> rows) throws IOException {
        StringBuilder text = new StringBuilder("## ").append(Instant.now()).append(' ').append(verdict)
                .append(System.lineSeparator()).append(System.lineSeparator());
        rows.forEach(row -> text.append(row).append(System.lineSeparator()));
        System.out.println("[drill] " + verdict);
        rows.forEach(row -> System.out.println("[drill] " + row));
        Path file = Path.of("target", "drills", "results.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text.append(System.lineSeparator()), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}

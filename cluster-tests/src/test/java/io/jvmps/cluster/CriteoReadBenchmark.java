package io.jvmps.cluster;

import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabeledData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading Criteo-format files with the library's reader ({@code CsvFormat.criteo()}), in this JVM: a file of
 * {@code -Dcriteo.rows} (default 2,000,000) rows in the display-advertising layout (the click, 13 integer counts of
 * which a fifth are blank, 26 categories as 8 hexadecimal digits of which a twentieth are blank), then
 * {@code cat FILE > /dev/null} (the faster of two, the file in the page cache), a Java loop that only counts the
 * file's lines (the floor of any reader in this JVM), the reader's check-and-index pass
 * ({@link CsvFile#open}) and a sequential pass that parses every row into a batch ({@link CsvFile#gather} of
 * 4,096 rows: the counts as features, the 26 hashed ids, the label), in rows per second against cat's. The file is
 * deleted afterwards.
 */
@Tag("benchmark")
class CriteoReadBenchmark {
    private static final int ROWS = Integer.getInteger("criteo.rows", 2_000_000);
    private static final int BATCH = 4096;

    @Test
    void readingRowsAgainstCat() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "criteo-read"));
        Path file = dir.resolve("train.tsv");
        try {
            write(file, ROWS);
            long bytes = Files.size(file);
            double cat = Math.min(CsvStreamingBenchmark.catSeconds(file), CsvStreamingBenchmark.catSeconds(file));
            countLines(file); // warms the loop up
            long counted = System.nanoTime();
            assertThat(countLines(file)).isEqualTo(ROWS);
            double scan = (System.nanoTime() - counted) / 1e9;
            CsvFile.open(file, CsvFormat.criteo(), 0); // warms the reader's code up once
            long began = System.nanoTime();
            CsvFile csv = CsvFile.open(file, CsvFormat.criteo(), 0);
            double index = (System.nanoTime() - began) / 1e9;
            assertThat(csv.size()).isEqualTo(ROWS);
            began = System.nanoTime();
            long clicks = 0;
            int[] indices = new int[BATCH];
            for (int from = 0; from < csv.size(); from += BATCH) {
                int n = Math.min(BATCH, csv.size() - from);
                if (n != indices.length) {
                    indices = new int[n];
                }
                for (int i = 0; i < n; i++) {
                    indices[i] = from + i;
                }
                LabeledData batch = csv.gather(indices);
                clicks += (long) batch.labels().sumNumber().doubleValue();
            }
            double pass = (System.nanoTime() - began) / 1e9;
            assertThat(clicks).isPositive();
            BenchmarkReport.record(String.format(Locale.ROOT, "Criteo-format reading: %d rows, %.1f MB; cat %.2f s "
                            + "(%.0f rows/s); a Java loop counting the lines %.2f s (%.2fx cat's rate); check-and-index pass %.2f s (%.0f rows/s, %.2fx cat's rate); sequential "
                            + "parse into %d-row batches %.2f s (%.0f rows/s, %.2fx cat's rate)", ROWS, bytes / 1e6, cat,
                    ROWS / cat, scan, cat / scan, index, ROWS / index, cat / index, BATCH, pass, ROWS / pass, cat / pass));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Writes {@code rows} examples in the Criteo layout, seeded. */
    private static void write(Path file, int rows) throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        StringBuilder line = new StringBuilder(256);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            for (int r = 0; r < rows; r++) {
                line.setLength(0);
                line.append(random.nextInt(4) == 0 ? 1 : 0);
                for (int c = 0; c < 13; c++) {
                    line.append('\t');
                    if (random.nextInt(5) != 0) {
                        line.append(random.nextInt(1 << (1 + random.nextInt(12))));
                    }
                }
                for (int c = 0; c < 26; c++) {
                    line.append('\t');
                    if (random.nextInt(20) != 0) {
                        // a value of a long-tailed vocabulary, hashed per column as Criteo's are
                        long value = random.nextInt(1 << (4 + random.nextInt(20)));
                        String hex = Integer.toHexString((int) ((value * 31 + c) * 0x9E3779B97F4A7C15L >>> 32));
                        line.append("0".repeat(8 - hex.length())).append(hex);
                    }
                }
                out.append(line).append('\n');
            }
        }
    }

    /** @return the file's newlines, counted a megabyte at a time: the floor of any reader on this JVM */
    private static long countLines(Path file) throws IOException {
        long lines = 0;
        byte[] chunk = new byte[1 << 20];
        try (java.io.InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(chunk); n > 0; n = in.read(chunk)) {
                for (int i = 0; i < n; i++) {
                    if (chunk[i] == '\n') {
                        lines++;
                    }
                }
            }
        }
        return lines;
    }
}

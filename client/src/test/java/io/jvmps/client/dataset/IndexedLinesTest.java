package io.jvmps.client.dataset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexedLinesTest {
    @TempDir
    Path dir;

    /** Lines of every length from short to longer than one read's run, some with a carriage return. */
    private List<String> lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add("line " + i + " " + "x".repeat(i == 7 ? 100_000 : i * 37 % 500) + (i % 5 == 0 ? "\r" : ""));
        }
        return lines;
    }

    private IndexedLines index(List<String> lines) throws Exception {
        Path file = dir.resolve("lines.txt");
        Files.writeString(file, String.join("\n", lines), StandardCharsets.US_ASCII); // no newline after the last
        IndexedLines.Builder builder = new IndexedLines.Builder(file);
        long offset = 0;
        for (String line : lines) {
            builder.add(offset);
            offset += line.length() + 1;
        }
        return builder.build(Files.size(file));
    }

    @Test
    void everyListedLineIsVisitedAtItsPositionWhateverTheOrder() throws Exception {
        List<String> lines = lines(400);
        IndexedLines indexed = index(lines);
        int[] indices = {399, 3, 4, 5, 7, 6, 3, 0, 200, 201, 202, 399, 8, 1};
        String[] seen = new String[indices.length];
        int[] visits = new int[1];
        indexed.read(indices, (position, line, bytes, end, start) -> {
            assertThat(line).isEqualTo(indices[position]);
            assertThat(seen[position]).as("visited once").isNull();
            seen[position] = new String(bytes, 0, end, StandardCharsets.US_ASCII);
            visits[0]++;
        });
        assertThat(visits[0]).isEqualTo(indices.length);
        for (int p = 0; p < indices.length; p++) {
            assertThat(seen[p]).isEqualTo(lines.get(indices[p]).replace("\r", ""));
        }
    }

    @Test
    void aSequentialBatchReadsTheSameLinesAsOneByOne() throws Exception {
        List<String> lines = lines(1000);
        IndexedLines indexed = index(lines);
        int[] all = java.util.stream.IntStream.range(0, 1000).toArray();
        List<String> together = new ArrayList<>();
        indexed.read(all, (position, line, bytes, end, start) -> together.add(new String(bytes, 0, end,
                StandardCharsets.US_ASCII)));
        List<String> alone = new ArrayList<>();
        for (int i : all) {
            indexed.read(new int[] {i}, (position, line, bytes, end, start) -> alone.add(new String(bytes, 0, end,
                    StandardCharsets.US_ASCII)));
        }
        assertThat(together).isEqualTo(alone);
        assertThat(together.get(999)).isEqualTo(lines.get(999).replace("\r", ""));
    }

    @Test
    void anIndexOutsideTheFileIsRefusedBeforeAnyVisit() throws Exception {
        IndexedLines indexed = index(lines(10));
        int[] visits = new int[1];
        assertThatThrownBy(() -> indexed.read(new int[] {0, 10}, (position, line, bytes, end, start) -> visits[0]++))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("example 10");
        assertThat(visits[0]).isZero();
    }
}

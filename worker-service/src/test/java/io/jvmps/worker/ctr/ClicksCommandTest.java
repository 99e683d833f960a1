package io.jvmps.worker.ctr;

import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabeledData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ClicksCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return ClicksCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void writesCriteoFilesTheLibrarysPresetReadsAndTheOracleBesideThem() throws Exception {
        assertThat(run("--out=" + dir, "--train=300", "--test=200", "--vocabulary=50", "--seed=3")).as(err.toString())
                .isZero();
        List<String> lines = Files.readAllLines(dir.resolve("train.tsv"));
        assertThat(lines).hasSize(300);
        String[] cells = lines.get(0).split("\t", -1);
        assertThat(cells).hasSize(1 + 13 + 26);
        assertThat(cells[0]).isIn("0", "1");
        assertThat(cells[13]).as("the counts are missing").isEmpty();
        assertThat(cells[14]).matches("[0-9a-f]{8}");
        Matcher oracle = Pattern.compile("oracle test AUC (0\\.\\d+)")
                .matcher(Files.readString(dir.resolve("oracle.txt")));
        assertThat(oracle.find()).isTrue();
        assertThat(Double.parseDouble(oracle.group(1))).isBetween(0.7, 0.99);

        CsvFile test = CsvFile.open(dir.resolve("test.tsv"), CsvFormat.criteo(), 0);
        LabeledData rows = test.rows(0, test.size());
        assertThat(rows.size()).isEqualTo(200);
        assertThat(rows.features().columns()).isEqualTo(13);
        assertThat(rows.features().sumNumber().doubleValue()).isZero();
        assertThat(rows.ids()).containsKeys("c1", "c26");
        // the generator's data: the test examples' clicks are its labels, and equal values of two fields differ
        ClickDataSpec spec = new ClickDataSpec(26, 50, 1.05, 3, 0.25, 0.8, -1.5, 3);
        ClickData expected = ClickData.generate(spec, 200, 1);
        for (int n = 0; n < 200; n++) {
            assertThat(rows.labels().getFloat(n, 0)).isEqualTo(expected.label(n));
        }
        Set<Long> first = new HashSet<>();
        for (long id : rows.ids().get("c1").toLongVector()) {
            first.add(id);
        }
        for (long id : rows.ids().get("c2").toLongVector()) {
            assertThat(first).doesNotContain(id);
        }
        assertThat(out.toString()).contains("(300 examples)").contains("oracle test AUC");
    }

    @Test
    void badArgumentsGiveAMessageAndCodeTwo() {
        assertThat(run("--train=10")).isEqualTo(2);
        assertThat(err.toString()).contains("--out is missing").contains("usage:");
        err.reset();
        assertThat(run("--out=" + dir, "--train=ten")).isEqualTo(2);
        assertThat(err.toString()).contains("--train must be a whole number, got 'ten'");
        err.reset();
        assertThat(run("--out=" + dir, "--crosses=20")).isEqualTo(2);
        assertThat(err.toString()).contains("bad click data spec");
        err.reset();
        assertThat(run("--out=" + dir, "--colour=red")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown option --colour");
        assertThat(dir.resolve("train.tsv")).doesNotExist();
    }
}

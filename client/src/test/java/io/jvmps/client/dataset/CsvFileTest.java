package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvFileTest {
    @TempDir
    Path dir;

    private Path csv(String text) throws Exception {
        return Files.writeString(dir.resolve("data.csv"), text);
    }

    @Test
    void readsALabelColumnByNameAnywhereInTheRow() throws Exception {
        Path file = csv("a,\"kind\",b\n1.5,2,-3\n\n4,0,5e-1\n");
        LabeledData data = all(CsvFile.open(file, CsvFormat.of("kind", true, ","), 0));
        assertThat(data.features().toFloatMatrix()).isEqualTo(new float[][]{{1.5f, -3f}, {4f, 0.5f}});
        assertThat(data.labels().toFloatMatrix()).isEqualTo(new float[][]{{0, 0, 1}, {1, 0, 0}});
    }

    @Test
    void readsAHeaderlessFileWithTheLabelByIndexAndAGivenClassCount() throws Exception {
        Path file = csv("0.25;1\n0.75;0.0\n");
        LabeledData data = all(CsvFile.open(file, CsvFormat.of("1", false, ";"), 4));
        assertThat(data.features().toFloatMatrix()).isEqualTo(new float[][]{{0.25f}, {0.75f}});
        assertThat(data.labels().toFloatMatrix()).isEqualTo(new float[][]{{0, 1, 0, 0}, {1, 0, 0, 0}});
    }

    @Test
    void aBadRowNamesTheFileTheLineAndWhatIsWrong() throws Exception {
        CsvFormat format = CsvFormat.of("0", true, ",");
        String header = "label,x,y\n";
        expectBad(csv(header + "1,2,3\n0,2\n"), format, 0, "line 3: expected 3 columns, found 2");
        expectBad(csv(header + "1,2,3\n0,abc,3\n"), format, 0, "line 3: column 2 (x) 'abc' is not a number");
        expectBad(csv(header + "1,NaN,3\n"), format, 0, "line 2: column 2 (x) 'NaN' is not a finite number");
        expectBad(csv(header + "1,Infinity,3\n"), format, 0, "line 2: column 2 (x) 'Infinity' is not a finite number");
        expectBad(csv(header + "1.5,2,3\n"), format, 0, "line 2: label '1.5' is not a class number");
        expectBad(csv(header + "-1,2,3\n"), format, 0, "line 2: label '-1' is not a class number");
        expectBad(csv(header + "cat,2,3\n"), format, 0, "line 2: label 'cat' is not a number");
        expectBad(csv(header + "1,2,3\n7,2,3\n"), format, 5, "line 3: label 7 is outside the 5 classes [0, 5)");
        expectBad(csv(header), format, 0, "has no data rows");
        expectBad(csv(header + "0,1,1\n0,2,2\n"), format, 0, "a classifier needs at least 2 classes");
        expectBad(csv(header + "1,2,3\n"), CsvFormat.of("target", true, ","), 0,
                "line 1: no column named 'target' (ps.worker.dataset.csv.label) in the header [label, x, y]");
        expectBad(csv("1,2\n"), CsvFormat.of("5", false, ","), 0, "line 1: ps.worker.dataset.csv.label=5 but the line has only 2");
        expectBad(dir.resolve("missing.csv"), format, 0, "no CSV file at");
    }

    @Test
    void aFormatThatCannotWorkIsRefusedUpFront() {
        assertThatThrownBy(() -> CsvFormat.of("label", false, ","))
                .isInstanceOf(PsException.class).hasMessageContaining("ps.worker.dataset.csv.header=false");
        assertThatThrownBy(() -> CsvFormat.of("0", true, "::"))
                .isInstanceOf(PsException.class).hasMessageContaining("ps.worker.dataset.csv.delimiter must be one ASCII character");
    }

    @Test
    void columnKindsWrittenAsTextSetEachNamedColumn() {
        CsvFormat format = CsvFormat.of("rating", true, ",").withColumns(" userId:id, genres:HASHED_IDS ,3:skip");
        assertThat(format.columns()).containsExactly(java.util.Map.entry("userId", ColumnKind.ID),
                java.util.Map.entry("genres", ColumnKind.HASHED_IDS), java.util.Map.entry("3", ColumnKind.SKIP));
        assertThat(CsvFormat.of("0", true, ",").withColumns(" ").columns()).isEmpty();
        assertThatThrownBy(() -> CsvFormat.of("0", true, ",").withColumns("userId"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'userId' is not NAME:KIND");
        assertThatThrownBy(() -> CsvFormat.of("0", true, ",").withColumns("userId:CATEGORY"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CATEGORY is not one of [NUMBER");
    }

    @Test
    void gathersAnyRowsInTheOrderAskedAcrossChunkBoundariesAndLineEndings() throws Exception {
        StringBuilder text = new StringBuilder("y,a,b,c,d,e,f,g,h\r\n");
        int rows = 40_000; // ~1.4 MB: rows cross the reader's 1 MiB chunks
        for (int i = 0; i < rows; i++) {
            text.append(i % 7).append(',').append(i).append(",-").append(i).append(",0.5,1e-3,2,3,4,")
                    .append(i % 3 == 0 ? "\"5\"" : "5").append(i % 2 == 0 ? "\r\n" : "\n");
        }
        Path file = Files.writeString(dir.resolve("big.csv"), text.toString().stripTrailing()); // no final newline
        CsvFile csv = CsvFile.open(file, CsvFormat.of("y", true, ","), 0);

        assertThat(csv.size()).isEqualTo(rows);
        assertThat(csv.featureSize()).isEqualTo(8);
        assertThat(csv.numClasses()).isEqualTo(7);
        int[] picked = {rows - 1, 0, 17_777, 17_777, 29_000};
        LabeledData batch = csv.gather(picked);
        for (int r = 0; r < picked.length; r++) {
            int i = picked[r];
            assertThat(batch.features().getRow(r).toFloatVector())
                    .containsExactly((float) i, -(float) i, 0.5f, 1e-3f, 2f, 3f, 4f, 5f);
            assertThat(batch.labels().getRow(r).argMax().getInt(0)).isEqualTo(i % 7);
        }
        assertThat(csv.rows(10, 13).features().getColumn(0).toFloatVector()).containsExactly(10f, 11f, 12f);
    }

    @Test
    void aFileChangedAfterOpeningIsRefusedNotMisread() throws Exception {
        Path file = csv("label,x\n0,1\n1,2\n");
        CsvFile opened = CsvFile.open(file, CsvFormat.of("0", true, ","), 0);
        Files.writeString(file, "label,x\n0,1\n1,2\n1,3\n");
        assertThatThrownBy(() -> opened.gather(new int[]{1}))
                .isInstanceOf(PsException.class).hasMessageContaining("changed while the job reads it");
    }

    @Test
    void withSkipBadRowsBadRowsAreLeftOutAndCounted() throws Exception {
        Path file = csv("label,x,y\n1,2,3\n0,abc,3\n1,4\n0,5,6\n-2,1,1\n");
        CsvFile csv = CsvFile.open(file, CsvFormat.of("0", true, ",", true), 0);
        assertThat(csv.size()).isEqualTo(2);
        assertThat(csv.skippedRows()).isEqualTo(3);
        assertThat(all(csv).features().toFloatMatrix()).isEqualTo(new float[][]{{2, 3}, {5, 6}});

        Path bad = csv("label,x\nNaN,1\nx,2\n");
        assertThatThrownBy(() -> CsvFile.open(bad, CsvFormat.of("0", true, ",", true), 0))
                .isInstanceOf(PsException.class).hasMessageContaining("has no data rows (2 bad rows skipped)");
        assertThat(CsvFile.open(csv("label,x\n1,2\n0,3\n"), CsvFormat.of("0", true, ","), 0).skippedRows()).isZero();
    }

    private static LabeledData all(CsvFile csv) {
        return csv.rows(0, csv.size());
    }

    private static void expectBad(Path file, CsvFormat format, int classes, String message) {
        assertThatThrownBy(() -> CsvFile.open(file, format, classes))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(file.getFileName().toString()).hasMessageContaining(message);
    }

    @Test
    void ratingsWithIdColumnsAMultiValuedFieldAndARealLabel() throws Exception {
        Path file = csv("userId,movieId,rating,genres\n1,31,2.5,Drama\n7,1029,3,Animation|Children|Drama\n"
                + "7,5,4.5,\n");
        CsvFormat format = CsvFormat.of("rating", true, ",").withLabel(LabelKind.REAL)
                .withColumn("userId", ColumnKind.ID).withColumn("movieId", ColumnKind.ID)
                .withColumn("genres", ColumnKind.HASHED_IDS);
        CsvFile opened = CsvFile.open(file, format, 0);
        assertThat(opened.featureSize()).isZero();
        assertThat(opened.numClasses()).isEqualTo(1);
        LabeledData data = all(opened);
        assertThat(data.labels().toFloatVector()).containsExactly(2.5f, 3f, 4.5f);
        assertThat(data.ids().get("userId").toLongVector()).containsExactly(1, 7, 7);
        assertThat(data.ids().get("movieId").toLongVector()).containsExactly(31, 1029, 5);
        long drama = CsvIds.hash("genres", "Drama");
        assertThat(data.ids().get("genres").toLongMatrix()).isEqualTo(new long[][] {{drama, 0, 0},
                {CsvIds.hash("genres", "Animation"), CsvIds.hash("genres", "Children"), drama}, {0, 0, 0}});
        assertThat(data.ids().get("genres_mask").toFloatMatrix()).isEqualTo(new float[][] {{1, 0, 0}, {1, 1, 1},
                {0, 0, 0}});
        assertThat(opened.gather(new int[] {1}).ids().get("genres").shape()).containsExactly(1, 3);
    }

    @Test
    void theCriteoLayoutReadsClicksCountsWithBlanksAndHashedCategories() throws Exception {
        StringBuilder line = new StringBuilder("1");
        for (int i = 1; i <= 13; i++) {
            line.append('\t').append(i == 2 ? "" : Integer.toString(i));
        }
        for (int c = 1; c <= 26; c++) {
            line.append('\t').append(c == 3 ? "" : "68fd1e64");
        }
        Path file = csv(line + "\n" + line.toString().replaceFirst("^1", "0") + "\n");
        LabeledData data = all(CsvFile.open(file, CsvFormat.criteo(), 0));
        assertThat(data.labels().toFloatVector()).containsExactly(1f, 0f);
        assertThat(data.features().getRow(0).toFloatVector()).containsExactly(1, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
        assertThat(data.ids()).hasSize(26);
        assertThat(data.ids().get("c1").getLong(0)).isEqualTo(CsvIds.hash("c1", "68fd1e64"))
                .isNotEqualTo(data.ids().get("c2").getLong(0));
        assertThat(data.ids().get("c3").getLong(1)).isEqualTo(CsvIds.hash("c3", ""));
        expectBad(csv(line.toString().replaceFirst("^1", "2") + "\n"), CsvFormat.criteo(), 0,
                "line 1: label '2' is not a click (0 or 1)");
    }

    @Test
    void badIdCellsAndUnknownColumnsAreNamed() throws Exception {
        CsvFormat ids = CsvFormat.of("y", true, ",").withColumn("user", ColumnKind.ID);
        expectBad(csv("user,x,y\n12,1,0\nbob,1,1\n"), ids, 0,
                "line 3: column 1 (user) 'bob' is not a whole-number id (declare the column HASHED for text)");
        expectBad(csv("user,x,y\n12,1,0\n"), CsvFormat.of("y", true, ",").withColumn("usr", ColumnKind.HASHED), 0,
                "no column 'usr' to read as HASHED");
        expectBad(csv("user,x,y\n12,1,abc\n"), ids.withLabel(LabelKind.REAL), 0, "label 'abc' is not a number");
        LabeledData skipped = all(CsvFile.open(csv("user,x,y\n12,1,0\n13,1,1\n"),
                CsvFormat.of("y", true, ",").withColumn("user", ColumnKind.SKIP), 0));
        assertThat(skipped.features().toFloatMatrix()).isEqualTo(new float[][] {{1f}, {1f}});
        assertThat(skipped.ids()).isEmpty();
    }
}

package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** LibSVM lines become dense rows and one-hot labels; every kind of bad line is refused naming file and line. */
class LibSvmFileTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aBinaryFileWithCommentsReadsAsDenseRows() throws IOException {
        Path file = write("a.svm", "# a header comment\n+1 1:0.5 3:2\n\n-1 2:-1.25   4:1e-1 # trailing\n+1\n");
        LibSvmFile svm = LibSvmFile.open(file, 0, 0);
        assertThat(svm.size()).isEqualTo(3);
        assertThat(svm.featureSize()).isEqualTo(4);
        assertThat(svm.numClasses()).isEqualTo(2);
        LabeledData rows = svm.gather(new int[]{1, 0, 2});
        assertThat(rows.features().toFloatMatrix()).isDeepEqualTo(new float[][]{
                {0f, -1.25f, 0f, 0.1f}, {0.5f, 0f, 2f, 0f}, {0f, 0f, 0f, 0f}});
        assertThat(rows.labels().toFloatMatrix()).isDeepEqualTo(new float[][]{{1f, 0f}, {0f, 1f}, {0f, 1f}});
    }

    @Test
    void sparseRowsKeepOnlyTheStoredValuesWithColumnIds() throws IOException {
        Path file = write("s.svm", "+1 1:0.5 3:2\n-1 2:-1.25 4:1e-1\n+1\n");
        SparseBatch batch = LibSvmFile.open(file, 0, 0).gatherSparse(new int[]{1, 2, 0});
        assertThat(batch.size()).isEqualTo(3);
        assertThat(batch.rowStarts()).containsExactly(0, 2, 2, 4);
        assertThat(batch.ids()).containsExactly(1L, 3L, 0L, 2L);
        assertThat(batch.values()).containsExactly(-1.25f, 0.1f, 0.5f, 2f);
        assertThat(batch.labels()).containsExactly(0, 1, 1);
        assertThat(batch.nonZeros()).isEqualTo(4);
    }

    @Test
    void classNumbersAndAGivenWidthAreKept() throws IOException {
        Path file = write("m.svm", "0 1:1\n2 2:1\r\n1 5:3\n");
        LibSvmFile svm = LibSvmFile.open(file, 8, 0);
        assertThat(svm.featureSize()).isEqualTo(8);
        assertThat(svm.numClasses()).isEqualTo(3);
        assertThat(svm.gather(new int[]{1}).labels().toFloatVector()).containsExactly(0f, 0f, 1f);
        assertThat(svm.gather(new int[]{2}).features().getFloat(0, 4)).isEqualTo(3f);
        assertThat(LibSvmFile.open(file, 0, 5).numClasses()).isEqualTo(5);
    }

    @Test
    void badLinesAreRefusedNamingFileAndLine() throws IOException {
        expectBad(write("b1.svm", "1 1:1\n1 2-3\n"), 0, 0, "b1.svm line 2: feature '2-3' is not index:value");
        expectBad(write("b2.svm", "1 3:1 2:1\n"), 0, 0, "line 1: feature index 2 does not increase (after 3)");
        expectBad(write("b3.svm", "1 0:1\n"), 0, 0, "feature index 0 is below 1");
        expectBad(write("b4.svm", "1 1:1\n0 9:1\n"), 4, 0, "line 2: feature index 9 is above the 4 features given");
        expectBad(write("b5.svm", "1 1:NaN\n"), 0, 0, "feature 1 has value NaN, not a finite number");
        expectBad(write("b6.svm", "2.5 1:1\n"), 0, 0, "line 1: label '2.5' is not a class number");
        expectBad(write("b7.svm", "-1 1:1\n2 1:1\n"), 0, 0, "binary file (-1 and +1), but it also has label 2");
        expectBad(write("b8.svm", "3 1:1\n"), 0, 2, "has label 3, at or above the 2 classes given");
        expectBad(write("b9.svm", "# nothing\n\n"), 0, 0, "has no examples");
        expectBad(dir.resolve("missing.svm"), 0, 0, "no LibSVM file at");
    }

    private static void expectBad(Path file, int features, int classes, String message) {
        assertThatThrownBy(() -> LibSvmFile.open(file, features, classes))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(message);
    }
}

package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static io.jvmps.client.dataset.IdxFixtures.idx;
import static io.jvmps.client.dataset.IdxFixtures.images;
import static io.jvmps.client.dataset.IdxFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdxReaderTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "gzip={0}")
    @ValueSource(booleans = {false, true})
    void readsImagesPlainOrGzipWhateverTheName(boolean gzip) throws Exception {
        byte[] pixels = images(3, 4);
        Path file = write(dir.resolve("images.bin"), idx(IdxReader.IMAGES_MAGIC, new int[] {3, 4, 4}, pixels), gzip);

        IdxArray read = IdxReader.readImages(file);

        assertThat(read.headerDims()).containsExactly(3, 4, 4);
        assertThat(read.items()).isEqualTo(3);
        assertThat(read.itemSize()).isEqualTo(16);
        assertThat(read.data()).isEqualTo(pixels);
        assertThat(read.unsigned(2, 15)).isEqualTo((2 * 7 + 15) % 256);
    }

    @Test
    void readsUnsignedLabelsAndHonoursTheItemLimit() throws Exception {
        byte[] labels = {9, 0, (byte) 200, 3};
        Path file = write(dir.resolve("labels.gz"), idx(IdxReader.LABELS_MAGIC, new int[] {4}, labels), true);

        assertThat(IdxReader.readLabels(file).unsigned(2, 0)).isEqualTo(200);
        IdxArray firstTwo = IdxReader.read(file, IdxReader.LABELS_MAGIC, 2);
        assertThat(firstTwo.items()).isEqualTo(2);
        assertThat(firstTwo.declaredItems()).isEqualTo(4);
        assertThat(firstTwo.data()).containsExactly(9, 0);
    }

    @Test
    void wrongMagicNamesTheFileAndBothNumbers() throws Exception {
        Path file = write(dir.resolve("labels-as-images"), idx(IdxReader.LABELS_MAGIC, new int[] {2}, new byte[2]), false);

        assertThatThrownBy(() -> IdxReader.readImages(file))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("0x00000801")
                .hasMessageContaining("expected 0x00000803");
    }

    @ParameterizedTest(name = "gzip={0}")
    @ValueSource(booleans = {false, true})
    void truncatedDataIsReportedWithByteCounts(boolean gzip) throws Exception {
        byte[] full = idx(IdxReader.IMAGES_MAGIC, new int[] {3, 4, 4}, images(3, 4));
        Path file = write(dir.resolve("short"), Arrays.copyOf(full, full.length - 5), gzip);

        assertThatThrownBy(() -> IdxReader.readImages(file))
                .isInstanceOf(PsException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("truncated")
                .hasMessageContaining("43 of the 48 data bytes");
        assertThat(IdxReader.read(file, IdxReader.IMAGES_MAGIC, 2).items()).as("the complete first items still read")
                .isEqualTo(2);
    }

    @Test
    void truncatedHeaderAndTruncatedGzipStreamAreReported() throws Exception {
        Path header = write(dir.resolve("header"), new byte[] {0, 0, 8, 3, 0, 0}, false);
        assertThatThrownBy(() -> IdxReader.readImages(header))
                .hasMessageContaining(header.toString()).hasMessageContaining("ends inside the header");

        Path gz = write(dir.resolve("gz"), idx(IdxReader.LABELS_MAGIC, new int[] {1000}, new byte[1000]), true);
        byte[] bytes = Files.readAllBytes(gz);
        Files.write(gz, Arrays.copyOf(bytes, bytes.length - 10));
        assertThatThrownBy(() -> IdxReader.readLabels(gz))
                .isInstanceOf(PsException.class).hasMessageContaining(gz.toString());
    }

    @Test
    void trailingBytesBadDimensionsAndMissingFilesAreRejected() throws Exception {
        Path trailing = write(dir.resolve("trailing"), idx(IdxReader.LABELS_MAGIC, new int[] {2}, new byte[3]), false);
        assertThatThrownBy(() -> IdxReader.readLabels(trailing)).hasMessageContaining("bytes after the 2 data bytes");

        Path zeroDim = write(dir.resolve("zero"), idx(IdxReader.IMAGES_MAGIC, new int[] {2, 0, 4}, new byte[0]), false);
        assertThatThrownBy(() -> IdxReader.readImages(zeroDim)).hasMessageContaining("dimension 1 = 0");

        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> IdxReader.readImages(missing))
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
    }
}

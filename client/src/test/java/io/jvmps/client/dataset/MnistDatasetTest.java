package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.jvmps.client.dataset.IdxFixtures.idx;
import static io.jvmps.client.dataset.IdxFixtures.images;
import static io.jvmps.client.dataset.IdxFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MnistDatasetTest {
    @TempDir
    Path dir;

    @Test
    void loadsScaledFeaturesAndOneHotLabelsFromPlainAndGzipNames() throws Exception {
        IdxFixtures.mnistDir(dir, 12, 5);
        assertThat(MnistDataset.isPresent(dir)).isTrue();

        LabeledData train = MnistDataset.load(dir, MnistSplit.TRAIN, 0);
        LabeledData test = MnistDataset.load(dir, MnistSplit.TEST, 0);

        assertThat(train.features().shape()).containsExactly(12, 784);
        assertThat(train.features().dataType()).isEqualTo(DataType.FLOAT);
        assertThat(train.labels().shape()).containsExactly(12, 10);
        assertThat(test.size()).isEqualTo(5);
        // pixel j of image i is (i * 7 + j) % 256
        assertThat(train.features().getDouble(3, 100)).isCloseTo((3 * 7 + 100) % 256 / 255.0, within(1e-6));
        assertThat(train.features().getDouble(11, 783)).isCloseTo((11 * 7 + 783) % 256 / 255.0, within(1e-6));
        assertThat(train.features().maxNumber().doubleValue()).isLessThanOrEqualTo(1.0);
        assertThat(train.features().minNumber().doubleValue()).isGreaterThanOrEqualTo(0.0);
        // label i is i % 10
        assertThat(train.labels().getDouble(11, 1)).isEqualTo(1.0);
        assertThat(train.labels().sumNumber().doubleValue()).isEqualTo(12.0);
        assertThat(train.labels().argMax(1).toIntVector()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1);
    }

    @Test
    void limitLoadsOnlyTheFirstExamples() throws Exception {
        IdxFixtures.mnistDir(dir, 12, 5);
        LabeledData all = MnistDataset.load(dir, MnistSplit.TRAIN, 0);
        LabeledData first = MnistDataset.load(dir, MnistSplit.TRAIN, 4);

        assertThat(first.size()).isEqualTo(4);
        assertThat(first.features()).isEqualTo(all.rows(0, 4).features());
        assertThat(MnistDataset.load(dir, MnistSplit.TEST, 100).size()).isEqualTo(5);
    }

    @Test
    void missingFileNamesDirectoryExpectedNamesAndFetchScript() throws Exception {
        IdxFixtures.mnistDir(dir, 3, 3);
        Files.delete(dir.resolve("t10k-labels-idx1-ubyte.gz"));

        assertThat(MnistDataset.isPresent(dir)).isFalse();
        assertThatThrownBy(() -> MnistDataset.requirePresent(dir))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(dir.toAbsolutePath().toString())
                .hasMessageContaining("missing t10k-labels-idx1-ubyte.")
                .hasMessageContaining("train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte")
                .hasMessageContaining("./scripts/fetch-mnist.sh");
        assertThatThrownBy(() -> MnistDataset.load(dir, MnistSplit.TEST, 0))
                .hasMessageContaining("t10k-labels-idx1-ubyte");
        assertThat(MnistDataset.load(dir, MnistSplit.TRAIN, 0).size()).isEqualTo(3);
        assertThatThrownBy(() -> MnistDataset.requirePresent(dir.resolve("absent")))
                .hasMessageContaining("does not exist");
    }

    @Test
    void inconsistentFilesAreRejected() throws Exception {
        IdxFixtures.mnistDir(dir, 4, 2);
        write(dir.resolve("train-labels-idx1-ubyte"), idx(IdxReader.LABELS_MAGIC, new int[] {3}, new byte[3]), false);
        assertThatThrownBy(() -> MnistDataset.load(dir, MnistSplit.TRAIN, 0))
                .hasMessageContaining("declares 4 images").hasMessageContaining("declares 3 labels");

        write(dir.resolve("train-labels-idx1-ubyte"), idx(IdxReader.LABELS_MAGIC, new int[] {4}, new byte[] {1, 2, 10, 3}), false);
        assertThatThrownBy(() -> MnistDataset.load(dir, MnistSplit.TRAIN, 0))
                .hasMessageContaining("label 10 at index 2");

        write(dir.resolve("train-images-idx3-ubyte"), idx(IdxReader.IMAGES_MAGIC, new int[] {4, 8, 8}, images(4, 8)), false);
        assertThatThrownBy(() -> MnistDataset.load(dir, MnistSplit.TRAIN, 0)).hasMessageContaining("8x8");
        assertThatThrownBy(() -> MnistDataset.load(dir, MnistSplit.TRAIN, -1)).hasMessageContaining("limit");
    }
}

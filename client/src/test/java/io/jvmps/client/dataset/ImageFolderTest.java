package io.jvmps.client.dataset;

import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ImageFolderTest {
    @TempDir
    Path dir;

    /** Writes a {@code w x h} RGB image of one colour. */
    private static Path image(Path file, int w, int h, int rgb) throws IOException {
        Files.createDirectories(file.getParent());
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                image.setRGB(x, y, rgb);
            }
        }
        String name = file.getFileName().toString();
        ImageIO.write(image, name.substring(name.lastIndexOf('.') + 1).replace("jpg", "jpeg"), file.toFile());
        return file;
    }

    @Test
    void classesAreTheSortedFoldersAndPixelsComeChannelsFirstScaledToOne() throws IOException {
        image(dir.resolve("train/dog/b.png"), 4, 2, 0xFF8000);  // red 255, green 128, blue 0
        image(dir.resolve("train/dog/a.png"), 4, 2, 0x0000FF);
        image(dir.resolve("train/cat/x.PNG"), 4, 2, 0x00FF00);
        Files.writeString(dir.resolve("train/cat/notes.txt"), "not an image");
        ImageFolder folder = ImageFolder.open(dir.resolve("train"), ImageLayout.fromFirstImage());
        assertThat(folder.classes()).containsExactly("cat", "dog");
        assertThat(folder.layout()).isEqualTo(new ImageLayout(2, 4, 3));
        assertThat(folder.size()).isEqualTo(3);
        assertThat(folder.featureSize()).isEqualTo(24);
        LabeledData batch = folder.gather(new int[] {2, 0});
        // index 2 is dog/b.png (cat/x first, then dog/a, dog/b): the red plane, then green, then blue
        float[] b = batch.features().getRow(0).toFloatVector();
        assertThat(b[0]).isEqualTo(1f);
        assertThat(b[7]).isEqualTo(1f);
        assertThat(b[8]).isCloseTo(128 / 255f, within(1e-6f));
        assertThat(b[16]).isZero();
        assertThat(batch.labels().getRow(0).toFloatVector()).containsExactly(0f, 1f);
        assertThat(batch.labels().getRow(1).toFloatVector()).containsExactly(1f, 0f);
    }

    @Test
    void imagesAreResizedAndGreyWhenTheLayoutSaysSo() throws IOException {
        image(dir.resolve("train/a/1.jpg"), 30, 20, 0xFFFFFF);
        image(dir.resolve("train/b/1.png"), 7, 7, 0x000000);
        ImageFolder folder = ImageFolder.open(dir.resolve("train"), new ImageLayout(5, 6, 1));
        assertThat(folder.featureSize()).isEqualTo(30);
        float[] white = folder.gather(new int[] {0}).features().toFloatVector();
        float[] black = folder.gather(new int[] {1}).features().toFloatVector();
        for (int i = 0; i < 30; i++) {
            assertThat(white[i]).isGreaterThan(0.95f);
            assertThat(black[i]).isZero();
        }
    }

    @Test
    void aTestFolderTakesTheTrainingClassesAndRefusesAnother() throws IOException {
        image(dir.resolve("train/a/1.png"), 2, 2, 0);
        image(dir.resolve("train/b/1.png"), 2, 2, 0);
        image(dir.resolve("test/b/1.png"), 2, 2, 0);
        ImageFolder train = ImageFolder.open(dir.resolve("train"), ImageLayout.fromFirstImage());
        ImageFolder test = ImageFolder.open(dir.resolve("test"), train.layout(), train.classes());
        assertThat(test.numClasses()).isEqualTo(2);
        assertThat(test.gather(new int[] {0}).labels().toFloatVector()).containsExactly(0f, 1f);
        image(dir.resolve("test/c/1.png"), 2, 2, 0);
        assertThatThrownBy(() -> ImageFolder.open(dir.resolve("test"), train.layout(), train.classes()))
                .isInstanceOf(PsException.class).hasMessageContaining("is not one of the training classes [a, b]");
    }

    @Test
    void badFoldersAndFilesAreNamed() throws IOException {
        assertThatThrownBy(() -> ImageFolder.open(dir.resolve("missing"), ImageLayout.fromFirstImage()))
                .isInstanceOf(PsException.class).hasMessageContaining("no image folder at");
        image(dir.resolve("one/a/1.png"), 2, 2, 0);
        assertThatThrownBy(() -> ImageFolder.open(dir.resolve("one"), ImageLayout.fromFirstImage()))
                .hasMessageContaining("only the class folder [a]");
        image(dir.resolve("two/a/1.png"), 2, 2, 0);
        Files.createDirectories(dir.resolve("two/b"));
        assertThatThrownBy(() -> ImageFolder.open(dir.resolve("two"), ImageLayout.fromFirstImage()))
                .hasMessageContaining("two/b holds no images");
    }

    @Test
    void aFileThatIsNoImageStopsTheOpeningNamingIt() throws IOException {
        image(dir.resolve("d/a/1.png"), 2, 2, 0);
        Files.createDirectories(dir.resolve("d/b"));
        Files.writeString(dir.resolve("d/b/2.png"), "this is text, not a PNG");
        assertThatThrownBy(() -> ImageFolder.open(dir.resolve("d"), ImageLayout.fromFirstImage()))
                .isInstanceOf(PsException.class).hasMessageContaining("d/b/2.png is not a PNG, JPEG, BMP or GIF image");
    }

    @Test
    void impossibleLayoutsAreRefused() {
        assertThatThrownBy(() -> new ImageLayout(28, 28, 2)).hasMessageContaining("1 (grey) or 3 (RGB)");
        assertThatThrownBy(() -> new ImageLayout(-1, 28, 1)).hasMessageContaining("[1, 4096]");
    }
}

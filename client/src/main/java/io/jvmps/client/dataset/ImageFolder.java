package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Images in one folder per class, as DL4J's {@code ImageRecordReader} with a {@code ParentPathLabelGenerator} reads
 * them: {@code root/<class>/<image>}, the classes being the sub-folders' names in sorted order (class 0 the first),
 * the images PNG, JPEG, BMP or GIF files ({@code .png .jpg .jpeg .bmp .gif}, any case) directly in their class
 * folder, in sorted order by class then name. Other files and hidden ones are left out (counted in the log).
 * Opening lists the files and reads each one's header, so a file that is no readable image stops it naming the
 * file; the pixels stay on disk and {@link #gather} decodes just a batch's images, brought to the
 * {@link ImageLayout} (resized, channels first, scaled to [0, 1]). Immutable and thread-safe.
 */
public final class ImageFolder implements Examples {
    private static final Logger log = LoggerFactory.getLogger(ImageFolder.class);
    private static final Set<String> EXTENSIONS = Set.of("png", "jpg", "jpeg", "bmp", "gif");

    private final Path root;
    private final List<Path> files;
    private final int[] labels;
    private final List<String> classes;
    private final ImageLayout layout;

    private ImageFolder(Path root, List<Path> files, int[] labels, List<String> classes, ImageLayout layout) {
        this.root = root;
        this.files = files;
        this.labels = labels;
        this.classes = classes;
        this.layout = layout;
    }

    /**
     * Opens a training folder: its sub-folders are the classes.
     *
     * @param root   the folder of class folders
     * @param layout the images' shape; a 0 takes that value from the first image (its height, width, and 1 channel
     *               for a grey image, else 3)
     * @throws PsException INVALID_ARGUMENT for a missing folder, fewer than 2 classes, a class without images, or a
     *                     file that is no readable image
     */
    public static ImageFolder open(Path root, ImageLayout layout) {
        return open(root, layout, null);
    }

    /**
     * Opens a folder whose classes are given (a test folder, with its training folder's classes and layout): each of
     * its sub-folders must be one of them; a class may have no folder here.
     *
     * @param classes the class names in class order, or null to take the sub-folders
     */
    public static ImageFolder open(Path root, ImageLayout layout, List<String> classes) {
        if (!Files.isDirectory(root)) {
            throw bad("no image folder at " + root.toAbsolutePath());
        }
        long began = System.nanoTime();
        List<String> folders = classFolders(root);
        List<String> names = classes == null ? folders : List.copyOf(classes);
        if (classes == null && names.size() < 2) {
            throw bad(root.toAbsolutePath() + " has " + (names.isEmpty() ? "no class folders" : "only the class folder "
                    + names) + "; images go in one folder per class (root/<class>/<image>), at least 2 classes");
        }
        List<Path> files = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        int skipped = 0;
        for (String folder : folders) {
            int label = names.indexOf(folder);
            if (label < 0) {
                throw bad(root.resolve(folder).toAbsolutePath() + " is not one of the training classes " + names);
            }
            int before = files.size();
            for (Path file : list(root.resolve(folder))) {
                if (isImageName(file)) {
                    files.add(file);
                    labels.add(label);
                } else {
                    skipped++;
                }
            }
            if (files.size() == before && classes == null) {
                throw bad("class folder " + root.resolve(folder).toAbsolutePath() + " holds no images (.png, .jpg, "
                        + ".jpeg, .bmp, .gif)");
            }
        }
        if (files.isEmpty()) {
            throw bad(root.toAbsolutePath() + " holds no images in its class folders " + folders);
        }
        ImageLayout resolved = layout.complete() ? layout : resolve(layout, files.get(0));
        for (Path file : files) {
            checkHeader(file);
        }
        ImageFolder folder = new ImageFolder(root, List.copyOf(files),
                labels.stream().mapToInt(Integer::intValue).toArray(), names, resolved);
        log.info(String.format(Locale.ROOT, "Opened image folder %s: %d images in %d classes %s, as %s (channels x "
                        + "height x width, scaled to [0, 1])%s, checked in %.1f s", root, files.size(), names.size(),
                names, resolved, skipped == 0 ? "" : "; left out " + skipped + " files that are no images",
                (System.nanoTime() - began) / 1e9));
        return folder;
    }

    /** @return the class names, class 0 first */
    public List<String> classes() {
        return classes;
    }

    /** @return the shape every image is brought to */
    public ImageLayout layout() {
        return layout;
    }

    @Override
    public int size() {
        return files.size();
    }

    @Override
    public int featureSize() {
        return layout.features();
    }

    @Override
    public int numClasses() {
        return classes.size();
    }

    /** @throws PsException INVALID_ARGUMENT naming an image that cannot be decoded */
    @Override
    public LabeledData gather(int[] indices) {
        int width = layout.features();
        float[] x = new float[Math.multiplyExact(indices.length, width)];
        float[] y = new float[indices.length * classes.size()];
        for (int r = 0; r < indices.length; r++) {
            int i = indices[r];
            if (i < 0 || i >= files.size()) {
                throw new IndexOutOfBoundsException("image index " + i + " is outside [0, " + files.size() + ")");
            }
            pixels(files.get(i), x, r * width);
            y[r * classes.size() + labels[i]] = 1f;
        }
        return new LabeledData(Nd4j.create(x, new long[] {indices.length, width}, DataType.FLOAT),
                Nd4j.create(y, new long[] {indices.length, classes.size()}, DataType.FLOAT));
    }

    /** Decodes one image into {@code out} from {@code offset}: channels first, resized, scaled to [0, 1]. */
    private void pixels(Path file, float[] out, int offset) {
        BufferedImage image = decode(file);
        int h = layout.height();
        int w = layout.width();
        BufferedImage scaled = new BufferedImage(w, h, layout.channels() == 1 ? BufferedImage.TYPE_BYTE_GRAY
                : BufferedImage.TYPE_INT_RGB);
        Graphics2D g = scaled.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(image, 0, 0, w, h, null);
        } finally {
            g.dispose();
        }
        int plane = h * w;
        if (layout.channels() == 1) {
            byte[] grey = new byte[plane];
            scaled.getRaster().getDataElements(0, 0, w, h, grey);
            for (int p = 0; p < plane; p++) {
                out[offset + p] = (grey[p] & 0xFF) / 255f;
            }
            return;
        }
        int[] rgb = scaled.getRGB(0, 0, w, h, null, 0, w);
        for (int p = 0; p < plane; p++) {
            int v = rgb[p];
            out[offset + p] = ((v >> 16) & 0xFF) / 255f;
            out[offset + plane + p] = ((v >> 8) & 0xFF) / 255f;
            out[offset + 2 * plane + p] = (v & 0xFF) / 255f;
        }
    }

    private static BufferedImage decode(Path file) {
        try {
            BufferedImage image = ImageIO.read(file.toFile());
            if (image == null) {
                throw bad(file.toAbsolutePath() + " is not an image Java can decode (PNG, JPEG, BMP or GIF)");
            }
            return image;
        } catch (IOException | RuntimeException e) {
            if (e instanceof PsException p) {
                throw p;
            }
            throw bad("cannot decode image " + file.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    /** Fills the values {@code layout} leaves at 0 from the first image. */
    private static ImageLayout resolve(ImageLayout layout, Path first) {
        BufferedImage image = decode(first);
        int channels = layout.channels() > 0 ? layout.channels()
                : image.getColorModel().getNumColorComponents() == 1 ? 1 : 3;
        return new ImageLayout(layout.height() > 0 ? layout.height() : Math.min(image.getHeight(), ImageLayout.MAX_SIDE),
                layout.width() > 0 ? layout.width() : Math.min(image.getWidth(), ImageLayout.MAX_SIDE), channels);
    }

    /** Reads the header only: a file no decoder takes, or a broken header, is named. */
    private static void checkHeader(Path file) {
        try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
            Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
            if (readers == null || !readers.hasNext()) {
                throw bad(file.toAbsolutePath() + " is not a PNG, JPEG, BMP or GIF image");
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                if (reader.getWidth(0) < 1 || reader.getHeight(0) < 1) {
                    throw bad(file.toAbsolutePath() + " has no pixels");
                }
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof PsException p) {
                throw p;
            }
            throw bad("cannot read image " + file.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    private static List<String> classFolders(Path root) {
        try (Stream<Path> children = Files.list(root)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw bad("cannot list " + root.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    private static List<Path> list(Path folder) {
        try (Stream<Path> children = Files.list(folder)) {
            return children.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted().toList();
        } catch (IOException e) {
            throw bad("cannot list " + folder.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    private static boolean isImageName(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 && EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    private static PsException bad(String detail) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, detail);
    }

    @Override
    public String toString() {
        return "ImageFolder(" + root + ", " + files.size() + " images, " + classes.size() + " classes, " + layout + ")";
    }
}

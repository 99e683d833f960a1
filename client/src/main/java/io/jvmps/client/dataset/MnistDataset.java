package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads MNIST from a directory of the four standard IDX files ({@code train-images-idx3-ubyte},
 * {@code train-labels-idx1-ubyte}, {@code t10k-images-idx3-ubyte}, {@code t10k-labels-idx1-ubyte},
 * each plain or with a {@code .gz} suffix). Features become float32 {@code [n, 784]} in [0, 1],
 * labels one-hot float32 {@code [n, 10]}. Stateless.
 */
public final class MnistDataset {
    /** Pixels per image (28 x 28). */
    public static final int FEATURES = 28 * 28;
    /** Digit classes. */
    public static final int CLASSES = 10;
    /** The script that downloads the files into the default data directory. */
    public static final String FETCH_SCRIPT = "./scripts/fetch-mnist.sh";

    private static final int SIDE = 28;

    private MnistDataset() {
    }

    /**
     * @param dir directory to look in
     * @return true if all four files (plain or gzip) are present
     */
    public static boolean isPresent(Path dir) {
        return missingFiles(dir).isEmpty();
    }

    /**
     * Fails fast, e.g. at start-up, when a file is missing.
     *
     * @param dir directory that must hold all four files
     * @throws PsException INVALID_ARGUMENT naming the directory, the expected names and the fetch script
     */
    public static void requirePresent(Path dir) {
        List<String> missing = missingFiles(dir);
        if (!missing.isEmpty()) {
            throw missing(dir, missing);
        }
    }

    /**
     * @param dir   the data directory
     * @param split which set
     * @param limit load only the first {@code limit} examples; 0 loads all
     * @return features {@code [n, 784]} and one-hot labels {@code [n, 10]}
     * @throws PsException INVALID_ARGUMENT when a file is missing or malformed, naming it
     */
    public static LabeledData load(Path dir, MnistSplit split, int limit) {
        if (limit < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "MNIST limit must be >= 0 (0 = all), got " + limit);
        }
        int maxItems = limit == 0 ? Integer.MAX_VALUE : limit;
        Path imagesFile = resolve(dir, split.imagesFile());
        Path labelsFile = resolve(dir, split.labelsFile());
        IdxArray images = IdxReader.read(imagesFile, IdxReader.IMAGES_MAGIC, maxItems);
        IdxArray labels = IdxReader.read(labelsFile, IdxReader.LABELS_MAGIC, maxItems);
        int[] dims = images.headerDims();
        if (dims[1] != SIDE || dims[2] != SIDE) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "MNIST images file " + imagesFile + " has images of "
                    + dims[1] + "x" + dims[2] + " pixels, expected " + SIDE + "x" + SIDE);
        }
        if (images.declaredItems() != labels.declaredItems()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "MNIST images file " + imagesFile + " declares "
                    + images.declaredItems() + " images but labels file " + labelsFile + " declares "
                    + labels.declaredItems() + " labels");
        }
        return new LabeledData(
                Tensors.unitScaled(images.data(), images.items(), FEATURES),
                Tensors.oneHot(classIds(labels, labelsFile), CLASSES));
    }

    /**
     * @param dir      the data directory
     * @param baseName a file name without {@code .gz}
     * @return the plain file if present, otherwise the {@code .gz} one
     * @throws PsException INVALID_ARGUMENT if neither exists
     */
    public static Path resolve(Path dir, String baseName) {
        Path found = find(dir, baseName);
        if (found == null) {
            throw missing(dir, List.of(baseName));
        }
        return found;
    }

    private static Path find(Path dir, String baseName) {
        Path plain = dir.resolve(baseName);
        if (Files.isRegularFile(plain)) {
            return plain;
        }
        Path gz = dir.resolve(baseName + ".gz");
        return Files.isRegularFile(gz) ? gz : null;
    }

    private static List<String> missingFiles(Path dir) {
        List<String> missing = new ArrayList<>();
        for (MnistSplit split : MnistSplit.values()) {
            for (String name : List.of(split.imagesFile(), split.labelsFile())) {
                if (find(dir, name) == null) {
                    missing.add(name);
                }
            }
        }
        return missing;
    }

    private static int[] classIds(IdxArray labels, Path file) {
        int[] ids = new int[labels.items()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = labels.unsigned(i, 0);
            if (ids[i] >= CLASSES) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "MNIST labels file " + file + " has label "
                        + ids[i] + " at index " + i + "; labels must be 0.." + (CLASSES - 1));
            }
        }
        return ids;
    }

    private static PsException missing(Path dir, List<String> missing) {
        List<String> expected = new ArrayList<>();
        for (MnistSplit split : MnistSplit.values()) {
            expected.add(split.imagesFile());
            expected.add(split.labelsFile());
        }
        String where = Files.isDirectory(dir) ? "directory " + dir.toAbsolutePath()
                : "directory " + dir.toAbsolutePath() + " (which does not exist)";
        return new PsException(ErrorCode.INVALID_ARGUMENT, "MNIST data not found in " + where + ": missing "
                + String.join(", ", missing) + ". Expected files " + String.join(", ", expected)
                + " (each plain or .gz). Run " + FETCH_SCRIPT + " to fetch them, or point ps.worker.dataset.path at a "
                + "directory holding them.");
    }
}

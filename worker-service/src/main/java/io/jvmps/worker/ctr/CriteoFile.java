package io.jvmps.worker.ctr;

import io.jvmps.common.sparse.RowPlacement;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes click examples in the Criteo display-advertising layout, the one CTR benchmarks use and
 * {@code CsvFormat.criteo()} reads: one example per line, tab-separated, no header: the click (0 or 1), 13 integer
 * counts ({@code i1..i13}) and 26 categories ({@code c1..c26}) as 8 hexadecimal digits. The generator's examples
 * have {@value #CATEGORIES} fields and no counts, so the counts are blank (missing, as Criteo's often are). A value's
 * text is a hash of its field and value, so equal values of two fields differ. The file appears whole or not at all.
 * Stateless.
 */
public final class CriteoFile {
    /** Categorical columns of the layout. */
    public static final int CATEGORIES = 26;
    /** Integer columns of the layout. */
    public static final int COUNTS = 13;

    private CriteoFile() {
    }

    /**
     * @param data examples of a spec with {@value #CATEGORIES} fields
     * @param file where to write
     * @throws IllegalArgumentException for a spec of another field count
     * @throws IOException when the file cannot be written
     */
    public static void write(ClickData data, Path file) throws IOException {
        if (data.spec().fields() != CATEGORIES) {
            throw new IllegalArgumentException("the Criteo layout has " + CATEGORIES + " categorical fields, the data "
                    + data.spec().fields());
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        int vocabulary = data.spec().vocabulary();
        String counts = "\t".repeat(COUNTS);
        try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII)) {
            int[] one = new int[1];
            StringBuilder line = new StringBuilder(16 + CATEGORIES * 9);
            for (int n = 0; n < data.size(); n++) {
                one[0] = n;
                long[] ids = data.deepIds(one);
                line.setLength(0);
                line.append(data.label(n)).append(counts);
                for (int f = 0; f < CATEGORIES; f++) {
                    line.append('\t');
                    String hex = Integer.toHexString((int) RowPlacement.mix(ids[f] * 31 + vocabulary));
                    line.append("0".repeat(8 - hex.length())).append(hex);
                }
                out.append(line).append('\n');
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}

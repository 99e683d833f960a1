package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A LibSVM file's features as the input of a table lookup, for a graph whose weights or embeddings are a table with
 * a row per feature column (sparse logistic regression, a factorisation machine, an embedding bag over the listed
 * features). {@link #gather} gives no dense features ({@code [n, 0]}) and, under the ids name {@code NAME}:
 * {@code NAME}, int64 {@code [n, w]}, each listed feature's index less one (feature {@code 1} is id {@code 0}), in
 * the row's order; {@code NAME_values}, float32 {@code [n, w]}, their values; and {@code NAME_mask}, float32
 * {@code [n, w]}, 1 for a listed feature and 0 for the padding after a row's last one (id 0, value 0). {@code w} is the
 * most features a row of the file lists. A graph declares placeholders of those names (it may leave out the values
 * or the mask) and, for example, sums {@code gather(table, NAME) * NAME_values}. Labels as the kind says:
 * {@link LabelKind#CLASS} one-hot {@code [n, classes]}, {@link LabelKind#BINARY} {@code [n, 1]} of 0 and 1 (a
 * file's -1 is 0). Immutable and thread-safe, as the file is.
 */
public final class LibSvmIds implements Examples {
    private final LibSvmFile file;
    private final String name;
    private final LabelKind labels;

    private LibSvmIds(LibSvmFile file, String name, LabelKind labels) {
        this.file = file;
        this.name = name;
        this.labels = labels;
    }

    /**
     * @param file   the indexed file
     * @param name   the ids' name: the graph's id placeholder ({@code NAME_values} and {@code NAME_mask} beside it)
     * @param labels CLASS or BINARY
     * @throws PsException INVALID_ARGUMENT for a blank name, REAL labels (LibSVM labels are read as classes), or
     *                     BINARY labels of a file with more than 2 classes
     */
    public static LibSvmIds of(LibSvmFile file, String name, LabelKind labels) {
        if (name == null || name.isBlank()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the ids of a LibSVM file need a name (the graph's id "
                    + "placeholder)");
        }
        if (labels == LabelKind.REAL) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "LibSVM labels are read as classes (0, 1, ... or "
                    + "-1/+1): CLASS or BINARY, not REAL");
        }
        if (labels == LabelKind.BINARY && file.numClasses() > 2) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "BINARY labels need a file of 2 classes; it has "
                    + file.numClasses());
        }
        return new LibSvmIds(file, name, labels);
    }

    @Override
    public int size() {
        return file.size();
    }

    /** @return 0: every feature goes through the ids */
    @Override
    public int featureSize() {
        return 0;
    }

    @Override
    public int numClasses() {
        return file.numClasses();
    }

    /** @return the width {@code w} of a batch's ids, values and mask */
    public int width() {
        return Math.max(1, file.widestRow());
    }

    /**
     * Reads the rows of {@code indices}.
     *
     * @throws PsException INVALID_ARGUMENT when the file changed since it was opened
     */
    @Override
    public LabeledData gather(int[] indices) {
        SparseBatch batch = file.gatherSparse(indices);
        int n = batch.size();
        int w = width();
        long[] ids = new long[n * w];
        float[] values = new float[n * w];
        float[] mask = new float[n * w];
        for (int r = 0; r < n; r++) {
            for (int k = batch.rowStarts()[r]; k < batch.rowStarts()[r + 1]; k++) {
                int at = r * w + k - batch.rowStarts()[r];
                ids[at] = batch.ids()[k];
                values[at] = batch.values()[k];
                mask[at] = 1f;
            }
        }
        int classes = labels == LabelKind.BINARY ? 1 : file.numClasses();
        float[] y = new float[n * classes];
        for (int r = 0; r < n; r++) {
            if (labels == LabelKind.BINARY) {
                y[r] = batch.labels()[r];
            } else {
                y[r * classes + batch.labels()[r]] = 1f;
            }
        }
        Map<String, org.nd4j.linalg.api.ndarray.INDArray> inputs = new LinkedHashMap<>();
        inputs.put(name, Nd4j.createFromArray(ids).reshape(n, w));
        inputs.put(name + "_values", Nd4j.create(values, new long[] {n, w}, DataType.FLOAT));
        inputs.put(name + "_mask", Nd4j.create(mask, new long[] {n, w}, DataType.FLOAT));
        return new LabeledData(Nd4j.create(DataType.FLOAT, n, 0), Nd4j.create(y, new long[] {n, classes},
                DataType.FLOAT), inputs);
    }
}

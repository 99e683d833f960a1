package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Locale;

/**
 * A CSV file of labelled examples, read row by row as the training loop asks for them: opening it reads
 * the file once, checks every row and keeps only where each row starts (8 bytes per row), so a worker's
 * memory does not grow with the file's size; {@link #gather} then reads just the rows of a batch. One
 * example per line; the label column ({@link CsvFormat#label()}) holds a class number (a whole number
 * from 0), every other column a finite number. Blank lines are skipped. A bad row stops the opening with
 * an error that names the file, the line and what was wrong, never a silent zero; with
 * {@link CsvFormat#skipBadRows()} it is left out, logged (the first {@value #LOGGED_SKIPS}) and counted
 * ({@link #skippedRows()}). Immutable and
 * thread-safe; each {@link #gather} opens the file for itself.
 */
public final class CsvFile implements Examples {
    private static final Logger log = LoggerFactory.getLogger(CsvFile.class);
    private static final int CHUNK = 1 << 20;
    private static final int LOGGED_SKIPS = 10;

    private final Path file;
    private final CsvRowParser parser;
    private final int features;
    private final int classes;
    private final IndexedLines lines;
    private final long skipped;
    private final LabelKind labelKind;
    /** Per multi-valued column, the most values a row of the file has (the width of its batches' ids). */
    private final int[] multiWidth;

    private CsvFile(Path file, CsvRowParser parser, int features, int classes, IndexedLines lines, long skipped,
                    LabelKind labelKind, int[] multiWidth) {
        this.labelKind = labelKind;
        this.multiWidth = multiWidth;
        this.skipped = skipped;
        this.file = file;
        this.parser = parser;
        this.features = features;
        this.classes = classes;
        this.lines = lines;
    }

    /**
     * Reads and checks the whole file once and indexes its rows.
     *
     * @param file       the CSV file
     * @param format     its layout
     * @param numClasses classes of the labels, or 0 to take the largest label + 1 (at least 2)
     * @return the indexed file
     * @throws PsException INVALID_ARGUMENT for a missing file, an unknown label column, a row with another
     *                     number of columns, a cell that is not a finite number, a label that is not a class
     *                     number below {@code numClasses}, or a file without data rows
     */
    public static CsvFile open(Path file, CsvFormat format, int numClasses) {
        if (!Files.isRegularFile(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "no CSV file at " + file.toAbsolutePath());
        }
        long began = System.nanoTime();
        try (InputStream in = Files.newInputStream(file)) {
            Indexer indexer = new Indexer(file, format, numClasses);
            indexer.scan(in);
            CsvFile csv = indexer.finish();
            log.info(String.format(Locale.ROOT, "Indexed %s: %d rows of %d features%s, %s, in %.1f s (%.1f MB "
                            + "read, %.1f MB of index)%s", file, csv.size(), csv.features,
                    csv.parser.idColumns().isEmpty() && csv.parser.multiColumns().isEmpty() ? ""
                            : " and ids " + csv.parser.idColumns() + (csv.parser.multiColumns().isEmpty() ? ""
                            : " multi-valued " + csv.parser.multiColumns()),
                    csv.labelKind == LabelKind.CLASS ? csv.classes + " classes" : csv.labelKind + " labels",
                    (System.nanoTime() - began) / 1e9, csv.lines.length() / 1e6, 8.0 * csv.size() / 1e6,
                    csv.skipped == 0 ? "" : "; skipped " + csv.skipped + " bad rows (ps.worker.dataset.csv.skip-bad-rows)"));
            return csv;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public int size() {
        return lines.size();
    }

    @Override
    public int featureSize() {
        return features;
    }

    @Override
    public int numClasses() {
        return classes;
    }

    @Override
    public long skippedRows() {
        return skipped;
    }

    /**
     * Reads the rows of {@code indices} from the file.
     *
     * @throws PsException INVALID_ARGUMENT when the file changed since it was opened (another length, or a
     *                     row that no longer parses)
     */
    @Override
    public LabeledData gather(int[] indices) {
        int n = indices.length;
        float[] x = new float[n * features];
        float[] y = new float[n * classes];
        List<String> idColumns = parser.idColumns();
        List<String> multiColumns = parser.multiColumns();
        long[][] ids = new long[idColumns.size()][n];
        long[][] multi = new long[multiColumns.size()][];
        float[][] masks = new float[multiColumns.size()][];
        for (int m = 0; m < multi.length; m++) {
            multi[m] = new long[n * multiWidth[m]];
            masks[m] = new float[n * multiWidth[m]];
        }
        CsvRowParser.Row parsed = parser.newRow();
        lines.read(indices, (r, row, bytes, end, start) -> {
            try {
                parser.parse(bytes, 0, end, parsed);
            } catch (CsvRowParser.BadRow e) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " row " + row + " (byte " + start
                        + ") no longer parses, did the file change? " + e.getMessage());
            }
            System.arraycopy(parsed.features, 0, x, r * features, features);
            if (labelKind == LabelKind.CLASS) {
                y[r * classes + (int) parsed.label] = 1f;
            } else {
                y[r] = (float) parsed.label;
            }
            for (int c = 0; c < ids.length; c++) {
                ids[c][r] = parsed.ids[c];
            }
            for (int m = 0; m < multi.length; m++) {
                int count = Math.min(parsed.multiCount[m], multiWidth[m]);
                System.arraycopy(parsed.multi[m], 0, multi[m], r * multiWidth[m], count);
                java.util.Arrays.fill(masks[m], r * multiWidth[m], r * multiWidth[m] + count, 1f);
            }
        });
        Map<String, INDArray> idArrays = new LinkedHashMap<>();
        for (int c = 0; c < ids.length; c++) {
            idArrays.put(idColumns.get(c), Nd4j.createFromArray(ids[c]));
        }
        for (int m = 0; m < multi.length; m++) {
            idArrays.put(multiColumns.get(m), Nd4j.createFromArray(multi[m]).reshape(n, multiWidth[m]));
            idArrays.put(multiColumns.get(m) + "_mask", Nd4j.create(masks[m], new long[] {n, multiWidth[m]},
                    DataType.FLOAT));
        }
        return new LabeledData(Nd4j.create(x, new long[]{n, features}, DataType.FLOAT),
                Nd4j.create(y, new long[]{n, classes}, DataType.FLOAT), idArrays);
    }

    /** The one pass over the file: header, column count, every row checked, row starts recorded. */
    private static final class Indexer {
        private final Path file;
        private final CsvFormat format;
        private final int numClasses;
        private boolean headerPending;
        private int columns = -1;
        /** The header's column names, or null for a file without one. */
        private List<String> headerNames;
        private int labelColumn;
        private CsvRowParser parser;
        private CsvRowParser.Row scratch;
        private int[] multiWidth = new int[0];
        private final IndexedLines.Builder lines;
        private int maxLabel = -1;
        private long skipped;
        private long lineNo;
        private long offset;
        private byte[] carry = new byte[4096];
        private int carried;
        private long carryStart;

        Indexer(Path file, CsvFormat format, int numClasses) {
            this.file = file;
            this.lines = new IndexedLines.Builder(file);
            this.format = format;
            this.numClasses = numClasses;
            this.headerPending = format.header();
            this.labelColumn = format.labelIndex();
        }

        void scan(InputStream in) throws IOException {
            byte[] chunk = new byte[CHUNK];
            int n;
            while ((n = in.readNBytes(chunk, 0, CHUNK)) > 0) {
                int lineStart = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] != '\n') {
                        continue;
                    }
                    if (carried > 0) {
                        append(chunk, lineStart, i);
                        line(carry, 0, carried, carryStart);
                        carried = 0;
                    } else {
                        line(chunk, lineStart, i, offset + lineStart);
                    }
                    lineStart = i + 1;
                }
                if (lineStart < n) {
                    if (carried == 0) {
                        carryStart = offset + lineStart;
                    }
                    append(chunk, lineStart, n);
                }
                offset += n;
            }
            if (carried > 0) {
                line(carry, 0, carried, carryStart);
                carried = 0;
            }
        }

        CsvFile finish() {
            if (lines.size() == 0) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " has no data rows"
                        + (skipped == 0 ? "" : " (" + skipped + " bad rows skipped)"));
            }
            int classes = format.labelKind() != LabelKind.CLASS ? 1 : numClasses > 0 ? numClasses : maxLabel + 1;
            if (classes < 2 && format.labelKind() == LabelKind.CLASS) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, file + ": every label is 0; a classifier needs at "
                        + "least 2 classes (set ps.worker.dataset.num-classes if this file lacks some)");
            }
            CsvRowParser rows = parser(classes);
            int[] widths = java.util.Arrays.stream(multiWidth).map(w -> Math.max(1, w)).toArray();
            return new CsvFile(file, rows, rows.features(), classes, lines.build(offset), skipped,
                    format.labelKind(), widths);
        }

        private void append(byte[] bytes, int from, int to) {
            int len = to - from;
            if (carried + len > carry.length) {
                carry = Arrays.copyOf(carry, Math.max(carry.length * 2, carried + len));
            }
            System.arraycopy(bytes, from, carry, carried, len);
            carried += len;
        }

        private void line(byte[] bytes, int from, int to, long start) {
            lineNo++;
            int end = to > from && bytes[to - 1] == '\r' ? to - 1 : to;
            if (blank(bytes, from, end)) {
                return;
            }
            if (headerPending) {
                headerPending = false;
                header(CsvRowParser.cells(bytes, from, end, format.delimiter()));
                return;
            }
            if (parser == null) {
                columns = CsvRowParser.cells(bytes, from, end, format.delimiter()).size();
                if (!format.names().isEmpty()) {
                    if (format.names().size() != columns) {
                        throw bad("the format names " + format.names().size() + " columns but the line has "
                                + columns);
                    }
                    headerNames = format.names();
                    if (labelColumn < 0) {
                        labelColumn = headerNames.indexOf(format.label());
                        if (labelColumn < 0) {
                            throw bad("no column named '" + format.label() + "' among " + headerNames);
                        }
                    }
                }
                if (labelColumn < 0) {
                    throw bad("ps.worker.dataset.csv.label='" + format.label() + "' names a column, but the file has "
                            + "no header");
                }
                if (labelColumn >= columns) {
                    throw bad("ps.worker.dataset.csv.label=" + format.label() + " but the line has only " + columns
                            + " columns");
                }
                start(columns);
            }
            try {
                parser.parse(bytes, from, end, scratch);
                maxLabel = Math.max(maxLabel, (int) scratch.label);
                for (int m = 0; m < multiWidth.length; m++) {
                    multiWidth[m] = Math.max(multiWidth[m], scratch.multiCount[m]);
                }
            } catch (CsvRowParser.BadRow e) {
                if (!format.skipBadRows()) {
                    throw bad(e.getMessage());
                }
                if (++skipped <= LOGGED_SKIPS) {
                    log.warn("{} line {} skipped: {}{}", file, lineNo, e.getMessage(),
                            skipped == LOGGED_SKIPS ? " (further skipped rows are only counted)" : "");
                }
                return;
            }
            lines.add(start);
        }

        private void header(List<String> names) {
            headerNames = names;
            columns = names.size();
            if (labelColumn >= 0) {
                if (labelColumn >= columns) {
                    throw bad("ps.worker.dataset.csv.label=" + labelColumn + " but the header has only " + columns + " columns");
                }
            } else {
                labelColumn = names.indexOf(format.label());
                if (labelColumn < 0) {
                    throw bad("no column named '" + format.label() + "' (ps.worker.dataset.csv.label) in the header "
                            + (columns > 12 ? names.subList(0, 12) + " and " + (columns - 12) + " more" : names));
                }
            }
            start(columns);
        }

        private void start(int columnCount) {
            if (columnCount < 2) {
                throw bad("a row needs a label and at least one feature, found " + columnCount + " column");
            }
            List<String> names = headerNames != null ? headerNames
                    : java.util.stream.IntStream.range(0, columnCount).mapToObj(Integer::toString).toList();
            try {
                kinds = format.kinds(names);
            } catch (PsException e) {
                throw bad(e.getMessage());
            }
            parser = parser(numClasses);
            scratch = parser.newRow();
            multiWidth = new int[parser.multiColumns().size()];
        }

        private ColumnKind[] kinds;

        private CsvRowParser parser(int classes) {
            return new CsvRowParser(format.delimiter(), columns, labelColumn, classes, headerNames,
                    format.labelKind(), kinds, format.valueSeparator(), format.blankIsZero());
        }

        private PsException bad(String what) {
            return new PsException(ErrorCode.INVALID_ARGUMENT, file + " line " + lineNo + ": " + what);
        }

        private static boolean blank(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                if (bytes[i] != ' ' && bytes[i] != '\t') {
                    return false;
                }
            }
            return true;
        }
    }
}

package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads IDX files of unsigned bytes (the MNIST format): a big-endian magic number
 * {@code 0x0000 08 NN} (type ubyte, NN dimensions), NN big-endian int dimensions, then the data.
 * Plain and gzip files are accepted; gzip is detected by its magic bytes, not by the file name.
 * Every problem is reported as a {@link PsException} with {@link ErrorCode#INVALID_ARGUMENT}
 * naming the file. Stateless.
 */
public final class IdxReader {
    /** Magic number of an image file: unsigned bytes, 3 dimensions. */
    public static final int IMAGES_MAGIC = 0x00000803;
    /** Magic number of a label file: unsigned bytes, 1 dimension. */
    public static final int LABELS_MAGIC = 0x00000801;

    private static final int BUFFER = 1 << 16;
    private static final int MAX_DATA_BYTES = Integer.MAX_VALUE - 16;

    private IdxReader() {
    }

    /** Reads every image of a {@link #IMAGES_MAGIC} file. */
    public static IdxArray readImages(Path file) {
        return read(file, IMAGES_MAGIC, Integer.MAX_VALUE);
    }

    /** Reads every label of a {@link #LABELS_MAGIC} file. */
    public static IdxArray readLabels(Path file) {
        return read(file, LABELS_MAGIC, Integer.MAX_VALUE);
    }

    /**
     * Reads the header and the first {@code maxItems} items of an IDX file.
     * When the whole file is requested, bytes after the declared data are an error too.
     *
     * @param file          the file, plain or gzip
     * @param expectedMagic {@link #IMAGES_MAGIC}, {@link #LABELS_MAGIC} or another ubyte magic
     * @param maxItems      at most this many items are read (&gt;= 0; {@code Integer.MAX_VALUE} for all)
     * @return the header dimensions and the bytes read
     * @throws PsException INVALID_ARGUMENT naming the file if it is missing, has the wrong magic or
     *                     dimensions, is truncated or has trailing bytes
     */
    public static IdxArray read(Path file, int expectedMagic, int maxItems) {
        if (maxItems < 0) {
            throw new IllegalArgumentException("maxItems must be >= 0, got " + maxItems);
        }
        if (!Files.isRegularFile(file)) {
            throw bad(file, "does not exist or is not a regular file");
        }
        try (DataInputStream in = new DataInputStream(open(file))) {
            int[] dims = readHeader(in, file, expectedMagic);
            int items = Math.min(maxItems, dims[0]);
            long itemSize = 1;
            for (int i = 1; i < dims.length; i++) {
                itemSize *= dims[i];
            }
            long bytes = items * itemSize;
            if (bytes > MAX_DATA_BYTES) {
                throw bad(file, "declares " + bytes + " data bytes, more than one array can hold");
            }
            byte[] data = new byte[(int) bytes];
            int read = in.readNBytes(data, 0, data.length);
            if (read < data.length) {
                throw bad(file, "is truncated: the header declares " + dims[0] + " items of " + itemSize
                        + " bytes, but only " + read + " of the " + bytes + " data bytes needed for "
                        + items + " items are present");
            }
            if (items == dims[0] && in.read() != -1) {
                throw bad(file, "has bytes after the " + bytes + " data bytes its header declares");
            }
            return new IdxArray(dims, items, data);
        } catch (EOFException e) {
            throw bad(file, "is truncated (unexpected end of data: " + e.getMessage() + ")");
        } catch (IOException e) {
            throw bad(file, "could not be read: " + e);
        }
    }

    private static int[] readHeader(DataInputStream in, Path file, int expectedMagic) throws IOException {
        int magic = readHeaderInt(in, file, "magic number");
        if (magic != expectedMagic) {
            throw bad(file, String.format("has magic number 0x%08X, expected 0x%08X (%s)",
                    magic, expectedMagic, describe(expectedMagic)));
        }
        int rank = expectedMagic & 0xFF;
        int[] dims = new int[rank];
        for (int i = 0; i < rank; i++) {
            dims[i] = readHeaderInt(in, file, "dimension " + i);
            if (dims[i] < 1) {
                throw bad(file, "declares dimension " + i + " = " + Integer.toUnsignedString(dims[i])
                        + "; every dimension must be between 1 and " + Integer.MAX_VALUE);
            }
        }
        return dims;
    }

    private static int readHeaderInt(DataInputStream in, Path file, String what) throws IOException {
        try {
            return in.readInt();
        } catch (EOFException e) {
            throw bad(file, "is truncated: it ends inside the header, before the " + what);
        }
    }

    private static InputStream open(Path file) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(Files.newInputStream(file), BUFFER);
        try {
            buffered.mark(2);
            int b0 = buffered.read();
            int b1 = buffered.read();
            buffered.reset();
            if (b0 == 0x1f && b1 == 0x8b) {
                return new BufferedInputStream(new GZIPInputStream(buffered, BUFFER), BUFFER);
            }
            return buffered;
        } catch (IOException | RuntimeException e) {
            buffered.close();
            throw e;
        }
    }

    private static String describe(int magic) {
        if (magic == IMAGES_MAGIC) {
            return "IDX images: unsigned bytes, 3 dimensions";
        }
        if (magic == LABELS_MAGIC) {
            return "IDX labels: unsigned bytes, 1 dimension";
        }
        return "IDX unsigned bytes, " + (magic & 0xFF) + " dimensions";
    }

    private static PsException bad(Path file, String what) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, "IDX file " + file + " " + what);
    }
}

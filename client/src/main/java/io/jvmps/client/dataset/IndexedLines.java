package io.jvmps.client.dataset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where each example's line starts in a text file (8 bytes per line), and the reading of chosen lines by
 * position: what {@link CsvFile} and {@link LibSvmFile} keep after their one checking pass. Immutable and
 * thread-safe; each {@link #read} opens the file for itself and refuses a file whose length changed.
 */
final class IndexedLines {
    private final Path file;
    private final long[] starts;
    private final long length;
    /** The most bytes one read takes for a run of neighbouring lines (a longer line is read alone). */
    private static final int RUN_BYTES = 1 << 16;

    private IndexedLines(Path file, long[] starts, long length) {
        this.file = file;
        this.starts = starts;
        this.length = length;
    }

    /** What a {@link #read} hands over per line. */
    @FunctionalInterface
    interface LineVisitor {
        /**
         * @param position the line's place in the read's {@code indices}
         * @param line     its example index
         * @param bytes    a buffer holding the line from offset 0 (valid during the call only)
         * @param end      the line's end: before its {@code \n} and a {@code \r} before that
         * @param start    its byte offset in the file
         */
        void visit(int position, int line, byte[] bytes, int end, long start);
    }

    /** @return number of lines indexed */
    int size() {
        return starts.length;
    }

    /** @return the file's length when it was indexed */
    long length() {
        return length;
    }

    /**
     * Reads the lines of {@code indices} from one channel, visiting each once per time it is listed. Lines are
     * read in file order, neighbouring lines (up to {@value #RUN_BYTES} bytes) with one read, so a batch of
     * consecutive rows costs a few reads rather than one per row; the visits may come in another order than
     * {@code indices} (each says its position).
     *
     * @throws IndexOutOfBoundsException for an index outside {@code [0, size())}
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT when the file's length changed
     */
    void read(int[] indices, LineVisitor visitor) {
        for (int line : indices) {
            if (line < 0 || line >= starts.length) {
                throw new IndexOutOfBoundsException("example " + line + " is outside [0, " + starts.length + ")");
            }
        }
        int[] order = fileOrder(indices);
        try (FileChannel channel = FileReads.openUnchanged(file, length)) {
            ByteBuffer run = ByteBuffer.allocate(RUN_BYTES);
            byte[] one = new byte[4096];
            int k = 0;
            while (k < order.length) {
                int first = indices[order[k]];
                long from = starts[first];
                long to = lineEnd(first);
                int j = k + 1;
                while (j < order.length) {
                    int next = indices[order[j]];
                    int previous = indices[order[j - 1]];
                    if ((next != previous && next != previous + 1) || lineEnd(next) - from > RUN_BYTES) {
                        break;
                    }
                    to = lineEnd(next);
                    j++;
                }
                int span = (int) Math.min(to - from, Integer.MAX_VALUE);
                if (run.capacity() < span) {
                    run = ByteBuffer.allocate(span);
                }
                run.clear().limit(span);
                FileReads.fill(channel, run, from);
                byte[] bytes = run.array();
                for (int m = k; m < j; m++) {
                    int line = indices[order[m]];
                    int offset = (int) (starts[line] - from);
                    int end = offset;
                    while (end < run.position() && bytes[end] != '\n') {
                        end++;
                    }
                    int length = end - offset;
                    if (one.length < length) {
                        one = new byte[length];
                    }
                    System.arraycopy(bytes, offset, one, 0, length);
                    visitor.visit(order[m], line, one, length > 0 && one[length - 1] == '\r' ? length - 1 : length,
                            starts[line]);
                }
                k = j;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** @return where line {@code line}'s bytes end in the file (its {@code \n} included) */
    private long lineEnd(int line) {
        return line + 1 < starts.length ? starts[line + 1] : length;
    }

    /** @return the positions of {@code indices}, ordered by their line (stable) */
    private static int[] fileOrder(int[] indices) {
        int n = indices.length;
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = indices[i] >= indices[i - 1];
        }
        int[] order = new int[n];
        if (sorted) {
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            return order;
        }
        long[] keyed = new long[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = (long) indices[i] << 32 | i;
        }
        Arrays.sort(keyed);
        for (int i = 0; i < n; i++) {
            order[i] = (int) keyed[i];
        }
        return order;
    }

    /** Collects line starts during an indexing pass. Not thread-safe. */
    static final class Builder {
        private final Path file;
        private long[] starts = new long[1024];
        private int size;

        Builder(Path file) {
            this.file = file;
        }

        /** Records the next example's line, starting at byte {@code start}. */
        void add(long start) {
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
            }
            starts[size++] = start;
        }

        /** @return lines recorded so far */
        int size() {
            return size;
        }

        /** @param length the file's length, read to the end */
        IndexedLines build(long length) {
            return new IndexedLines(file, Arrays.copyOf(starts, size), length);
        }
    }
}

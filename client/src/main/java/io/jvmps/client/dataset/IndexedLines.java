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
     * Reads the lines of {@code indices}, in that order, from one channel.
     *
     * @throws IndexOutOfBoundsException for an index outside {@code [0, size())}
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT when the file's length changed
     */
    void read(int[] indices, LineVisitor visitor) {
        try (FileChannel channel = FileReads.openUnchanged(file, length)) {
            ByteBuffer buffer = ByteBuffer.allocate(4096);
            for (int r = 0; r < indices.length; r++) {
                int line = indices[r];
                if (line < 0 || line >= starts.length) {
                    throw new IndexOutOfBoundsException("example " + line + " is outside [0, " + starts.length + ")");
                }
                long start = starts[line];
                int span = (int) Math.min((line + 1 < starts.length ? starts[line + 1] : length) - start,
                        Integer.MAX_VALUE);
                if (buffer.capacity() < span) {
                    buffer = ByteBuffer.allocate(span);
                }
                buffer.clear().limit(span);
                FileReads.fill(channel, buffer, start);
                byte[] bytes = buffer.array();
                int end = 0;
                while (end < buffer.position() && bytes[end] != '\n') {
                    end++;
                }
                visitor.visit(r, line, bytes, end > 0 && bytes[end - 1] == '\r' ? end - 1 : end, start);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
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

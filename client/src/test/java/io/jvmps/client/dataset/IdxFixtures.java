package io.jvmps.client.dataset;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Builds small IDX files for tests. */
final class IdxFixtures {

    private IdxFixtures() {
    }

    /** @return header (magic, dims, big-endian) followed by {@code data} */
    static byte[] idx(int magic, int[] dims, byte[] data) {
        ByteBuffer buf = ByteBuffer.allocate(4 + 4 * dims.length + data.length);
        buf.putInt(magic);
        for (int d : dims) {
            buf.putInt(d);
        }
        buf.put(data);
        return buf.array();
    }

    /** Writes {@code content} to {@code file}, gzip-compressed if asked. */
    static Path write(Path file, byte[] content, boolean gzip) throws IOException {
        if (!gzip) {
            return Files.write(file, content);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content);
        }
        return Files.write(file, bytes.toByteArray());
    }

    /** @return {@code n} images of {@code side x side} pixels where pixel j of image i is {@code (i * 7 + j) % 256} */
    static byte[] images(int n, int side) {
        byte[] data = new byte[n * side * side];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < side * side; j++) {
                data[i * side * side + j] = (byte) ((i * 7 + j) % 256);
            }
        }
        return data;
    }

    /** @return {@code n} labels {@code i % 10} */
    static byte[] labels(int n) {
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) (i % 10);
        }
        return data;
    }

    /** Writes the four MNIST files with {@code trainN} and {@code testN} examples; the test files gzipped with a .gz name. */
    static void mnistDir(Path dir, int trainN, int testN) throws IOException {
        write(dir.resolve("train-images-idx3-ubyte"),
                idx(IdxReader.IMAGES_MAGIC, new int[] {trainN, 28, 28}, images(trainN, 28)), false);
        write(dir.resolve("train-labels-idx1-ubyte"), idx(IdxReader.LABELS_MAGIC, new int[] {trainN}, labels(trainN)), false);
        write(dir.resolve("t10k-images-idx3-ubyte.gz"),
                idx(IdxReader.IMAGES_MAGIC, new int[] {testN, 28, 28}, images(testN, 28)), true);
        write(dir.resolve("t10k-labels-idx1-ubyte.gz"), idx(IdxReader.LABELS_MAGIC, new int[] {testN}, labels(testN)), true);
    }
}

package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A hashed table's trained rows as two NumPy files (format 1.0, little-endian, readable by numpy, by nd4j's
 * {@code Nd4j.createFromNpyFile} and without jvm-ps): {@code <table>.ids.npy}, int64 {@code [n]}, ascending, and
 * {@code <table>.rows.npy}, float32 {@code [n, dim]}, row {@code i} for id {@code i}. Row {@code i} is the table's
 * value for {@code ids[i]}; an id not listed was never trained and reads as its initial value. Each file appears
 * whole or not at all. Stateless.
 */
public final class TableFiles {
    private static final int PAGE = 16_384;

    private TableFiles() {
    }

    /** @return where a table's ids are written in {@code dir} */
    public static Path idsFile(Path dir, String table) {
        return dir.resolve(table + ".ids.npy");
    }

    /** @return where a table's rows are written in {@code dir} */
    public static Path rowsFile(Path dir, String table) {
        return dir.resolve(table + ".rows.npy");
    }

    /**
     * Writes every row the servers hold of a table of the job, pulled a page at a time: for a loop of one's own
     * (the trainer's {@code save} writes its hashed tables itself).
     *
     * @param dir   where the two files go (it must exist)
     * @param table the table's name, as declared
     * @param dim   its row width
     * @throws UncheckedIOException when a file cannot be written
     * @throws io.jvmps.common.protocol.PsException what listing the ids or pulling the rows raises
     */
    public static void write(Path dir, io.jvmps.client.PsJob job, String table, int dim) {
        write(dir, table, dim, job.control().sparseIds(table), job.sparse());
    }

    /**
     * Writes a table's rows, pulled from the servers a page at a time.
     *
     * @param ids every id the table holds, ascending
     * @throws UncheckedIOException when a file cannot be written
     */
    static void write(Path dir, String table, int dim, long[] ids, SparseClient client) {
        Path idsTmp = idsFile(dir, table).resolveSibling(table + ".ids.npy.tmp");
        Path rowsTmp = rowsFile(dir, table).resolveSibling(table + ".rows.npy.tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(idsTmp)))) {
                header(out, "<i8", "(" + ids.length + ",)");
                ByteBuffer buffer = ByteBuffer.allocate(8 * PAGE).order(ByteOrder.LITTLE_ENDIAN);
                for (int from = 0; from < ids.length; from += PAGE) {
                    buffer.clear();
                    for (int i = from; i < Math.min(ids.length, from + PAGE); i++) {
                        buffer.putLong(ids[i]);
                    }
                    out.write(buffer.array(), 0, buffer.position());
                }
            }
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(rowsTmp)))) {
                header(out, "<f4", "(" + ids.length + ", " + dim + ")");
                for (int from = 0; from < ids.length; from += PAGE) {
                    long[] page = java.util.Arrays.copyOfRange(ids, from, Math.min(ids.length, from + PAGE));
                    float[] rows = new float[page.length * dim];
                    client.pull(table, dim, page, rows);
                    ByteBuffer buffer = ByteBuffer.allocate(4 * rows.length).order(ByteOrder.LITTLE_ENDIAN);
                    buffer.asFloatBuffer().put(rows);
                    out.write(buffer.array());
                }
            }
            Files.move(idsTmp, idsFile(dir, table), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(rowsTmp, rowsFile(dir, table), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rows of table '" + table + "' to " + dir, e);
        } finally {
            try {
                Files.deleteIfExists(idsTmp);
                Files.deleteIfExists(rowsTmp);
            } catch (IOException ignored) {
                // the write failed too; its error is the one reported
            }
        }
    }

    /** NumPy format 1.0: magic, version, header length, a dictionary padded with blanks to a multiple of 64. */
    private static void header(OutputStream out, String descr, String shape) throws IOException {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
        int unpadded = 10 + dict.length() + 1;
        String padded = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        int length = padded.length();
        out.write(length & 0xff);
        out.write(length >>> 8);
        out.write(padded.getBytes(StandardCharsets.US_ASCII));
    }

    /** @return every row of a bounded table, pulled from the servers in parts, as {@code [vocabulary, dim]} */
    /**
     * Puts every table of {@code graph} where its saved file has it: a bounded table back into its variable, every
     * row pulled; a hashed one's rows written to {@code dir} (every id the servers hold).
     */
    static void putTables(SameDiffGraph graph, Path dir, io.jvmps.client.control.ControlClient control,
                          io.jvmps.client.data.SparseClient sparse) {
        for (GraphTables.Table table : graph.tables().list()) {
            if (table.table().hashed()) {
                write(dir, table.variable(), table.dim(), control.sparseIds(table.variable()), sparse);
            } else {
                graph.setTable(table.variable(), wholeTable(sparse, table));
            }
        }
    }

    static org.nd4j.linalg.api.ndarray.INDArray wholeTable(io.jvmps.client.data.SparseClient sparse, GraphTables.Table table) {
        int rows = Math.toIntExact(table.vocabulary());
        float[] values = new float[Math.multiplyExact(rows, table.dim())];
        int part = Math.max(1, (1 << 20) / table.dim());
        for (int from = 0; from < rows; from += part) {
            int to = Math.min(rows, from + part);
            long[] ids = java.util.stream.LongStream.range(from, to).toArray();
            float[] out = new float[ids.length * table.dim()];
            sparse.pull(table.variable(), table.dim(), ids, out);
            System.arraycopy(out, 0, values, from * table.dim(), out.length);
        }
        return org.nd4j.linalg.factory.Nd4j.create(values, new long[] {rows, table.dim()}, org.nd4j.linalg.api.buffer.DataType.FLOAT);
    }
}

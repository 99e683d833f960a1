package io.jvmps.worker.ctr;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.data.SparseClient;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * Writes the servers' current rows of a sparse table for given ids to {@code <dir>/<table>.rows}, for
 * inspection and tests: big-endian {@code int dim, int count}, then per row (ids ascending) {@code long id}
 * and {@code dim} floats. Written to a temporary file and renamed, so a reader never sees half a file.
 */
public final class TableExport {
    private TableExport() {
    }

    /**
     * @param ids ids to export (repeats allowed)
     * @return the file written
     */
    public static Path write(Path dir, SparseClient client, String table, int dim, long[] ids) {
        long[] distinct = Arrays.stream(ids).distinct().sorted().toArray();
        float[] rows = new float[distinct.length * dim];
        client.pull(table, dim, distinct, rows);
        Path target = dir.resolve(table + ".rows");
        try {
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, table, ".tmp");
            try (OutputStream file = Files.newOutputStream(temp);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(file))) {
                out.writeInt(dim);
                out.writeInt(distinct.length);
                for (int i = 0; i < distinct.length; i++) {
                    out.writeLong(distinct[i]);
                    for (int k = 0; k < dim; k++) {
                        out.writeFloat(rows[i * dim + k]);
                    }
                }
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new PsException(ErrorCode.INTERNAL, "cannot write " + target + ": " + e.getMessage());
        }
    }
}

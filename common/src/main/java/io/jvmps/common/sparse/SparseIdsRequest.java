package io.jvmps.common.sparse;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * Asks a server for a page of a table's ids (route {@code ps.v1.sparse.ids}). Immutable; JSON on the wire.
 *
 * @param table the table's name
 * @param after the page starts after this id (ids ascend as signed 64-bit numbers), or null for the first page
 * @param limit most ids in the page, 1..{@value #MAX_LIMIT}
 */
public record SparseIdsRequest(String table, Long after, int limit) {
    /** Largest page. */
    public static final int MAX_LIMIT = 50_000;

    /** @throws PsException INVALID_ARGUMENT for a missing table name or a limit outside 1..{@value #MAX_LIMIT} */
    public SparseIdsRequest {
        if (table == null || table.isBlank()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "a sparse ids request needs the table's name");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "a sparse ids page holds 1.." + MAX_LIMIT
                    + " ids, asked " + limit);
        }
    }
}

package io.jvmps.common.protocol;

/**
 * Every RSocket route string used between workers and servers. Routes are versioned by prefix so a
 * later incompatible protocol can live beside this one.
 *
 * <p>Interaction models: {@link #DENSE_INIT} and {@link #DENSE_PUSH} are request-channel (the
 * requester streams {@code TensorChunk} frames, the responder answers with one {@link PushAck});
 * {@link #DENSE_PULL} is request-stream (one {@code SliceRequest} frame in, {@code TensorChunk}
 * frames out); {@link #SERVER_STATUS} is request-response with JSON. Immutable constants.
 */
public final class Routes {
    /**
     * Declares the dense model (JSON {@link DenseDeclaration} in, JSON {@link DenseDeclared} out),
     * request-response; a server restoring a checkpoint creates its slices from it here.
     */
    public static final String DENSE_DECLARE = "ps.v1.dense.declare";
    /**
     * Recovery after a server was replaced (JSON {@link RecoverRequest} in, JSON {@link RecoverAnswer}
     * out), request-response: first to learn the newest complete checkpoint, then to roll back to it.
     */
    public static final String RECOVER = "ps.v1.recover";
    /**
     * A worker asks to be expected in synchronous steps from a given step on (JSON {@link JoinRequest}
     * in, JSON {@link JoinAnswer} out), request-response; SYNC mode only.
     */
    public static final String JOIN = "ps.v1.join";
    /** Seeds dense slices with initial values; the first initialisation of a slice wins. */
    public static final String DENSE_INIT = "ps.v1.dense.init";
    /** Pushes gradients for dense slices at one step. */
    public static final String DENSE_PUSH = "ps.v1.dense.push";
    /** Pulls dense slices once they have reached a minimum version. */
    public static final String DENSE_PULL = "ps.v1.dense.pull";
    /** Declares a sparse table (JSON {@code SparseTableSpec} in, JSON {@code SparseTableStatus} out), request-response. */
    public static final String SPARSE_DECLARE = "ps.v1.sparse.declare";
    /**
     * Lists a sparse table's ids on one server, ascending, a page at a time (JSON {@code SparseIdsRequest} in,
     * JSON {@code SparseIds} out), request-response: what an export walks to write a hashed table's rows.
     */
    public static final String SPARSE_IDS = "ps.v1.sparse.ids";
    /** Reads sparse rows: one binary pull frame in, one rows frame out, request-response. */
    public static final String SPARSE_PULL = "ps.v1.sparse.pull";
    /** Applies sparse row gradients or deltas: one binary push frame in, one {@link PushAck} out, request-response. */
    public static final String SPARSE_PUSH = "ps.v1.sparse.push";
    /** The servers' training semantics as a {@link ServerDescription} (JSON), request-response. */
    public static final String SERVER_DESCRIBE = "ps.v1.describe";
    /** A server's status as JSON (slices, bytes, versions, optimizer). */
    public static final String SERVER_STATUS = "ps.v1.status";

    private Routes() {
    }
}

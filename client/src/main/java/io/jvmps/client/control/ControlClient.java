package io.jvmps.client.control;

import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.protocol.DenseDeclaration;
import io.jvmps.common.protocol.DenseDeclared;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RecoverAnswer;
import io.jvmps.common.protocol.RecoverRequest;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.SparseTableStatus;

import java.time.Duration;
import java.util.List;

/**
 * The servers' control routes, each sent to every server in parallel: what the job trains with
 * ({@link #describe}), declaring dense parameters and sparse tables, joining synchronous steps, and the
 * calls that bring a job back after a lost server (newest checkpoint, roll back). JSON requests on the
 * same connections as the data plane. Blocking, each with a deadline; errors are {@link PsException}s whose
 * message names the server and route: TIMEOUT for a deadline, NOT_READY for a lost connection, otherwise the
 * server's code. Stateless apart from its connections; thread-safe.
 */
public final class ControlClient {
    private final ServerConnections connections;
    private final int rank;
    private final Duration timeout;

    /**
     * @param connections one connection per server rank
     * @param rank        this worker's rank (it tags joins)
     * @param timeout     deadline of one call (including server-side waits)
     */
    public ControlClient(ServerConnections connections, int rank, Duration timeout) {
        this.connections = connections;
        this.rank = rank;
        this.timeout = timeout;
    }

    /** @return a control client on the same connections, rank and deadline as a dense client */
    public static ControlClient alongside(DenseClient dense) {
        return new ControlClient(dense.connections(), dense.rank(), dense.timeout());
    }

    /** @return this worker's rank */
    public int rank() {
        return rank;
    }

    /**
     * Asks every server for its training semantics and checks they all agree.
     *
     * @return the semantics (of server 0; all are equal)
     * @throws PsException INVALID_ARGUMENT naming the servers that disagree
     */
    public ServerDescription describe() {
        List<ServerDescription> all = connections.callAll(Routes.SERVER_DESCRIBE, null, ServerDescription.class, timeout);
        for (ServerDescription d : all) {
            if (!d.sameSemantics(all.get(0))) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "servers disagree on the training semantics: "
                        + all.get(0) + " vs " + d);
            }
        }
        return all.get(0);
    }

    /**
     * Declares the dense model to every server, before {@link DenseClient#init}. Servers that restored a
     * checkpoint create their slices from it and answer its step.
     *
     * @param params the dense parameters in a fixed order, the same in every worker
     * @return the step every server's slices are at: 0 for a fresh job, else the restored checkpoint's
     * @throws PsException NOT_READY when the servers answer different steps (naming them): a replacement
     *                     server restored a checkpoint the others have not rolled back to (a worker recovers
     *                     from that), or the servers do not read one {@code ps.checkpoint.dir}; or a server's
     *                     own error (e.g. the checkpoint holds another model)
     */
    public long declareDense(List<ParamSpec> params) {
        return declareDense(params, 0);
    }

    /**
     * Same as {@link #declareDense(List)}, also telling the servers the job's length, which sizes a cosine
     * learning-rate schedule configured without {@code ps.optimizer.total-steps} ({@link JobUpdates}).
     *
     * @param jobUpdates the job's updates per slice ({@link JobUpdates#of}); 0 = not told
     */
    public long declareDense(List<ParamSpec> params, long jobUpdates) {
        List<DenseDeclared> answers = declareDenseAll(params, jobUpdates);
        long step = answers.get(0).step();
        for (DenseDeclared d : answers) {
            if (d.step() != step) {
                throw new PsException(ErrorCode.NOT_READY, "servers are at different steps: " + answers
                        + "; a replacement server restored a checkpoint the others have not rolled back to yet, "
                        + "or the servers do not read the same ps.checkpoint.dir");
            }
        }
        return step;
    }

    /**
     * Declares the dense model to every server without comparing their steps (during a recovery the
     * replacement has restored a checkpoint and the others have not rolled back yet).
     *
     * @param jobUpdates the job's updates per slice ({@link JobUpdates#of}); 0 = not told
     * @return each server's answer, by rank
     */
    public List<DenseDeclared> declareDenseAll(List<ParamSpec> params, long jobUpdates) {
        return connections.callAll(Routes.DENSE_DECLARE, new DenseDeclaration(params, connections.serverSet(),
                        jobUpdates), DenseDeclared.class, timeout);
    }

    /**
     * Declares a sparse table on every server (idempotent for the same spec).
     *
     * @return each server's view of the table, by rank
     */
    public List<SparseTableStatus> declareSparse(SparseTableSpec spec) {
        return connections.callAll(Routes.SPARSE_DECLARE, spec, SparseTableStatus.class, timeout);
    }

    /**
     * Lists every id a table holds on any server (route {@link Routes#SPARSE_IDS}, page by page).
     *
     * @return the ids, ascending as signed 64-bit numbers
     * @throws PsException UNKNOWN_KEY for an undeclared table
     */
    public long[] sparseIds(String table) {
        long[][] perServer = new long[connections.size()][];
        for (int server = 0; server < connections.size(); server++) {
            java.util.List<long[]> pages = new java.util.ArrayList<>();
            Long after = null;
            boolean more = true;
            while (more) {
                io.jvmps.common.sparse.SparseIds page = connections.call(server, Routes.SPARSE_IDS,
                        new io.jvmps.common.sparse.SparseIdsRequest(table, after,
                                io.jvmps.common.sparse.SparseIdsRequest.MAX_LIMIT),
                        io.jvmps.common.sparse.SparseIds.class, timeout).block(timeout.plusSeconds(5));
                if (page == null) {
                    throw new PsException(ErrorCode.INTERNAL, "server " + server + " sent no ids page of '" + table + "'");
                }
                pages.add(page.ids());
                more = page.more() && page.ids().length > 0;
                after = page.ids().length > 0 ? page.ids()[page.ids().length - 1] : after;
            }
            perServer[server] = pages.stream().flatMapToLong(java.util.Arrays::stream).toArray();
        }
        long[] all = java.util.Arrays.stream(perServer).flatMapToLong(java.util.Arrays::stream).toArray();
        java.util.Arrays.sort(all);
        return all;
    }

    /**
     * Asks every server to expect this worker in synchronous steps from {@code step} on (route
     * {@link Routes#JOIN}).
     *
     * @param nodeId this worker's node id
     * @return each server's answer, by rank
     */
    public List<JoinAnswer> join(String nodeId, long step) {
        return connections.callAll(Routes.JOIN, new JoinRequest(rank, nodeId, step), JoinAnswer.class, timeout);
    }

    /**
     * Asks every server (after it finished its pending checkpoint writes) for the newest complete
     * checkpoint.
     *
     * @return its step, -1 when there is none
     * @throws PsException NOT_READY when the servers see different checkpoints (retry later)
     */
    public long latestCheckpoint() {
        List<RecoverAnswer> answers = recover(-1);
        long latest = answers.get(0).latestStep();
        if (answers.stream().anyMatch(a -> a.latestStep() != latest)) {
            throw new PsException(ErrorCode.NOT_READY, "servers see different newest checkpoints: " + answers);
        }
        return latest;
    }

    /**
     * @return the checkpoint step every server already rolled back to (or restored at start) for the
     * current server set, or -1 when they have not all done so for the same step
     */
    public long rolledBackTo() {
        List<RecoverAnswer> answers = recover(-1);
        long step = answers.get(0).step();
        return answers.stream().allMatch(a -> a.step() == step) ? step : -1;
    }

    /**
     * Rolls every server back to checkpoint {@code step} for the current server set (a repeat by another
     * worker for the same failure changes nothing).
     *
     * @return the step to resume at
     * @throws PsException NOT_READY when not every server rolled back to it
     */
    public long rollBack(long step) {
        List<RecoverAnswer> answers = recover(step);
        if (answers.stream().anyMatch(a -> a.step() != step)) {
            throw new PsException(ErrorCode.NOT_READY, "servers did not all roll back to step " + step + ": "
                    + answers);
        }
        return step;
    }

    private List<RecoverAnswer> recover(long step) {
        return connections.callAll(Routes.RECOVER, new RecoverRequest(connections.serverSet(), step),
                RecoverAnswer.class, timeout);
    }
}

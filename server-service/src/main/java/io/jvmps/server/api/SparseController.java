package io.jvmps.server.api;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.common.sparse.SparseCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.jvmps.common.sparse.SparsePull;
import io.jvmps.common.sparse.SparsePush;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.SparseTableStatus;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.LiveWorkers;
import io.jvmps.server.consistency.SenderCheck;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.server.sparse.SparseTable;
import io.jvmps.server.sparse.SparseTables;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/**
 * The sparse (embedding) table routes: declare (JSON, through Spring's dispatch), pull and push (one binary frame
 * each way, see {@link SparseCodec}, through {@link DataPathResponder}). Every id must be one this server owns by {@link RowPlacement}; sparse pushes apply as
 * they arrive, whatever the dense consistency mode. Errors reach the requester as {@code [CODE] detail}.
 */
@Controller
public class SparseController {
    private final SparseTables tables;
    private final Frames frames;
    private final ServerIdentity identity;
    private final int servers;
    private final ServerMetrics metrics;
    private final LiveWorkers workers;
    private final io.jvmps.server.checkpoint.LostState lostState;
    private final io.jvmps.server.checkpoint.SliceLessCheck sliceLess;
    private final io.jvmps.server.store.DeclaredModel declaredModel;

    /**
     * @param cluster   gives the job's server count, for the placement check
     * @param workers   the job's worker ranks, for the sender check
     * @param lostState refuses creating a table afresh on a server that replaced a lost one without a checkpoint
     * @param sliceLess refuses a table on a server the dense model gives no slice, when checkpoints are on
     * @param model     the declared dense model
     */
    public SparseController(SparseTables tables, Frames frames, ServerIdentity identity, ClusterProperties cluster,
                            ServerMetrics metrics, LiveWorkers workers, io.jvmps.server.checkpoint.LostState lostState,
                            io.jvmps.server.checkpoint.SliceLessCheck sliceLess,
                            io.jvmps.server.store.DeclaredModel model) {
        this.sliceLess = sliceLess;
        this.declaredModel = model;
        this.lostState = lostState;
        this.workers = workers;
        this.tables = tables;
        this.frames = frames;
        this.identity = identity;
        this.servers = cluster.serverNum();
        this.metrics = metrics;
    }

    /** Route {@value Routes#SPARSE_DECLARE}: creates the table if absent; idempotent. */
    @MessageMapping(Routes.SPARSE_DECLARE)
    public Mono<SparseTableStatus> declare(SparseTableSpec spec) {
        return Mono.fromCallable(() -> {
            int rank = identity.rank();
            if (tables.all().stream().noneMatch(t -> t.spec().name().equals(spec.name()))) {
                lostState.requireNotLost("sparse table '" + spec.name() + "'");
            }
            sliceLess.require(declaredModel.shardMap(), rank, true);
            if (spec.initRows() > 0 && rank < 0) {
                throw new PsException(ErrorCode.NOT_READY, "this server has no rank yet; sparse table '" + spec.name()
                        + "' with initial rows can be declared once the scheduler assigned one");
            }
            return tables.declare(spec, id -> RowPlacement.serverOf(id, servers) == rank).status();
        }).subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
    }

    /** Route {@value Routes#SPARSE_IDS}: a page of the table's ids on this server, ascending. */
    @MessageMapping(Routes.SPARSE_IDS)
    public Mono<io.jvmps.common.sparse.SparseIds> ids(io.jvmps.common.sparse.SparseIdsRequest request) {
        return Mono.fromCallable(() -> tables.require(request.table()).ids(request.after(), request.limit()))
                .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
    }

    /**
     * Route {@value Routes#SPARSE_PULL} (dispatched by {@link DataPathResponder}): the rows of distinct ids, in order;
     * a payload of several pull frames (a step's tables) is answered by as many rows frames, in the same order.
     */
    public Mono<DataBuffer> pull(DataBuffer request) {
        return metrics.timeSparsePull(Mono.fromCallable(() -> {
            List<SparsePull> pulls = frames.decode(request, f -> SparseCodec.decodeAll(f, SparseCodec::decodePull));
            List<SparseTable> held = new ArrayList<>(pulls.size());
            for (SparsePull pull : pulls) { // every check first: a bad part answers nothing
                SenderCheck.check(pull.sender(), workers.ranks());
                held.add(tables.require(pull.table()));
                checkOwned(pull.table(), pull.ids());
            }
            if (pulls.size() == 1) {
                return frames.wrap(rowsFrame(held.get(0), pulls.get(0).ids()));
            }
            CompositeByteBuf answer = frames.allocator().compositeBuffer(pulls.size());
            try {
                for (int p = 0; p < pulls.size(); p++) {
                    answer.addComponent(true, rowsFrame(held.get(p), pulls.get(p).ids()));
                }
            } catch (RuntimeException e) {
                answer.release();
                throw e;
            }
            return frames.wrap(answer);
        }));
    }

    /** @return a rows frame of the ids' rows, copied from the table straight into the frame */
    private ByteBuf rowsFrame(SparseTable table, long[] ids) {
        int dim = table.spec().dim();
        ByteBuf frame = SparseCodec.encodeRows(frames.allocator(), dim, ids.length, out -> table.pull(ids, out));
        metrics.bytesOut((long) ids.length * dim * 4);
        return frame;
    }

    /**
     * Route {@value Routes#SPARSE_PUSH} (dispatched by {@link DataPathResponder}): row gradients or deltas; a payload
     * of several push frames (a step's tables) is checked whole (frames, sender, tables, dims, owners, finite values)
     * before any is applied, then applied in order. A table's memory cap is the one check that comes with its apply:
     * when it refuses one, the error names that table and the tables before it in the payload stay applied.
     */
    public Mono<PushAck> push(DataBuffer request) {
        return metrics.timeSparsePush(Mono.fromCallable(() -> {
            List<SparsePush> pushes = frames.decode(request, f -> SparseCodec.decodeAll(f, SparseCodec::decodePush));
            List<SparseTable.CheckedPush> checked = new ArrayList<>(pushes.size());
            for (SparsePush push : pushes) {
                SenderCheck.check(push.sender(), workers.ranks());
                SparseTable table = tables.require(push.table());
                if (push.dim() != table.spec().dim()) {
                    throw new PsException(ErrorCode.SHAPE_MISMATCH, "sparse table '" + push.table() + "' has dim "
                            + table.spec().dim() + "; push from worker " + push.sender() + " carries dim " + push.dim());
                }
                checkOwned(push.table(), push.ids());
                checked.add(table.check(push.step(), push.ids(), push.values(), push.kind()));
            }
            long rows = 0;
            long elements = 0;
            for (int p = 0; p < pushes.size(); p++) {
                int applied = checked.get(p).apply();
                rows += applied;
                elements += (long) applied * pushes.get(p).dim();
            }
            return new PushAck(identity.rank(), pushes.get(0).step(), (int) Math.min(Integer.MAX_VALUE, rows), elements);
        }));
    }

    private void checkOwned(String table, long[] ids) {
        int rank = identity.rank();
        if (rank < 0) {
            throw new PsException(ErrorCode.NOT_READY, "this server has no rank yet; sparse table '" + table
                    + "' is served once the scheduler assigned one");
        }
        for (long id : ids) {
            int owner = RowPlacement.serverOf(id, servers);
            if (owner != rank) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + table + "': id " + id
                        + " belongs to server " + owner + " of " + servers + ", not to server " + rank);
            }
        }
    }
}

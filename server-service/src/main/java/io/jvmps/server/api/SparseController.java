package io.jvmps.server.api;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.common.sparse.SparseCodec;
import io.netty.buffer.ByteBuf;
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

    /** Route {@value Routes#SPARSE_PULL} (dispatched by {@link DataPathResponder}): the rows of distinct ids, in order. */
    public Mono<DataBuffer> pull(DataBuffer request) {
        return metrics.timeSparsePull(Mono.fromCallable(() -> {
            SparsePull pull = frames.decode(request, SparseCodec::decodePull);
            SenderCheck.check(pull.sender(), workers.ranks());
            SparseTable table = tables.require(pull.table());
            checkOwned(pull.table(), pull.ids());
            int dim = table.spec().dim();
            long[] ids = pull.ids();
            // the rows go from the table straight into the answer frame
            ByteBuf answer = SparseCodec.encodeRows(frames.allocator(), dim, ids.length, out -> table.pull(ids, out));
            metrics.bytesOut((long) ids.length * dim * 4);
            return frames.wrap(answer);
        }));
    }

    /** Route {@value Routes#SPARSE_PUSH} (dispatched by {@link DataPathResponder}): row gradients or deltas. */
    public Mono<PushAck> push(DataBuffer request) {
        return metrics.timeSparsePush(Mono.fromCallable(() -> {
            SparsePush push = frames.decode(request, SparseCodec::decodePush);
            SenderCheck.check(push.sender(), workers.ranks());
            SparseTable table = tables.require(push.table());
            if (push.dim() != table.spec().dim()) {
                throw new PsException(ErrorCode.SHAPE_MISMATCH, "sparse table '" + push.table() + "' has dim "
                        + table.spec().dim() + "; push from worker " + push.sender() + " carries dim " + push.dim());
            }
            checkOwned(push.table(), push.ids());
            int rows = table.push(push.ids(), push.values(), push.kind());
            return new PushAck(identity.rank(), push.step(), rows, (long) rows * push.dim());
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

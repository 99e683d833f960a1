package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RecoverAnswer;
import io.jvmps.common.protocol.RecoverRequest;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.server.sparse.SparseTables;
import io.jvmps.common.sharding.Slice;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Global rollback after a server was replaced: a restarted server restores the newest complete
 * checkpoint, so the surviving servers must go back to the same one, or workers would train on
 * parameters that no longer exist anywhere. Sparse tables go back with the dense slices: each server keeps
 * the checkpoint's rows it owns under the current server count. Workers drive it ({@link RecoverRequest}); a server rolls
 * back once per server set (the node ids by rank), so every worker recovering from the same failure
 * can send the same request. A rollback fails every pull waiting on this server with
 * {@link ErrorCode#ROLLED_BACK}. Thread-safe (rollbacks are serialised).
 */
public final class Recovery {
    private static final Logger log = LoggerFactory.getLogger(Recovery.class);

    private final Checkpointer checkpointer;
    private final DenseStore store;
    private final DeclaredModel model;
    private final ConsistencyPolicy policy;
    private final ServerIdentity identity;
    private final long restoredAtStartup;
    private final io.jvmps.server.consistency.PushLedger ledger;
    private final SparseTables sparse;
    private String servers;
    private long rollbackStep = -1;

    /**
     * @param checkpointer      writes and reads checkpoints; null when {@code ps.checkpoint.dir} is unset
     * @param restoredAtStartup step restored when this process started, -1 if none
     */
    public Recovery(Checkpointer checkpointer, DenseStore store, DeclaredModel model, ConsistencyPolicy policy,
                    ServerIdentity identity, long restoredAtStartup) {
        this(checkpointer, store, model, policy, identity, restoredAtStartup, null);
    }

    /** Same, also rolling the push ledger back ({@code ledger} may be null). */
    public Recovery(Checkpointer checkpointer, DenseStore store, DeclaredModel model, ConsistencyPolicy policy,
                    ServerIdentity identity, long restoredAtStartup, io.jvmps.server.consistency.PushLedger ledger) {
        this(checkpointer, store, model, policy, identity, restoredAtStartup, ledger, null);
    }

    /** Same, also rolling the sparse tables back ({@code sparse} may be null). */
    public Recovery(Checkpointer checkpointer, DenseStore store, DeclaredModel model, ConsistencyPolicy policy,
                    ServerIdentity identity, long restoredAtStartup, io.jvmps.server.consistency.PushLedger ledger,
                    SparseTables sparse) {
        this.sparse = sparse;
        this.ledger = ledger;
        this.checkpointer = checkpointer;
        this.store = store;
        this.model = model;
        this.policy = policy;
        this.identity = identity;
        this.restoredAtStartup = restoredAtStartup;
    }

    /** Records the server set of the first declaration (and the step restored at start-up, if any). */
    public synchronized void declared(String serverSet) {
        if (servers == null && serverSet != null && !serverSet.isBlank()) {
            servers = serverSet;
            rollbackStep = restoredAtStartup;
        }
    }

    /**
     * @return the answer; see {@link RecoverRequest}
     * @throws PsException INVALID_ARGUMENT without a server set, for a step below -1, without checkpoints or for a
     *                     step that cannot be read,
     *                     NOT_READY before the model was declared here
     */
    public RecoverAnswer handle(RecoverRequest request) {
        if (request == null || request.servers() == null || request.servers().isBlank()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "field servers is required: the server set the worker "
                    + "is connected to, node ids by rank, comma-separated");
        }
        if (request.step() < -1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "field step must be a checkpoint step >= 0, or -1 to "
                    + "ask for the newest one; got " + request.step());
        }
        int rank = identity.rank();
        if (checkpointer == null) {
            if (request.step() < 0) {
                return new RecoverAnswer(rank, -1, -1, false);
            }
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "server " + rank + " keeps no checkpoints "
                    + "(ps.checkpoint.dir is unset): a job that lost a server cannot roll back");
        }
        checkpointer.drain();
        long latest = latestStep();
        if (request.step() < 0) {
            synchronized (this) { // the step this server set was already rolled back to, if it was
                return new RecoverAnswer(rank, latest, request.servers().equals(servers) ? rollbackStep : -1, false);
            }
        }
        synchronized (this) {
            if (request.servers().equals(servers) && request.step() == rollbackStep) {
                return new RecoverAnswer(rank, latest, rollbackStep, false);
            }
            rollBack(rank, request);
            servers = request.servers();
            rollbackStep = request.step();
            return new RecoverAnswer(rank, latest, rollbackStep, true);
        }
    }

    private long latestStep() {
        try {
            Optional<Checkpoint> cp = checkpointer.files().latestComplete(CheckpointStore.NO_ROWS);
            return cp.map(Checkpoint::step).orElse(-1L);
        } catch (IOException e) {
            throw new PsException(ErrorCode.INTERNAL, "cannot list checkpoints in " + checkpointer.directory() + ": "
                    + e.getMessage());
        }
    }

    private void rollBack(int rank, RecoverRequest request) {
        ShardMap map = model.shardMap();
        if (map == null) {
            throw new PsException(ErrorCode.NOT_READY, "server " + rank + " has no declared model yet; declare it "
                    + "before recovering");
        }
        CheckpointImage image;
        int servers = map.servers();
        java.util.function.LongPredicate owned = id -> RowPlacement.serverOf(id, servers) == rank;
        try {
            image = checkpointer.files().load(request.step(), owned).image(); // only this server's sparse rows
        } catch (IOException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "server " + rank + " cannot roll back to checkpoint "
                    + "step " + request.step() + ": " + e.getMessage());
        }
        if (!image.params().equals(map.params())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "checkpoint step " + request.step()
                    + " holds another model: " + image.params());
        }
        List<DenseSlice> locked = new ArrayList<>();
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        try {
            for (Slice slice : map.slicesOf(rank)) {
                DenseSlice s = store.get(slice.key());
                if (s == null) {
                    throw new PsException(ErrorCode.NOT_READY, "slice " + slice + " is not initialised on server "
                            + rank + "; declare and initialise before recovering");
                }
                s.lock();
                locked.add(s);
            }
            for (int i = 0; i < locked.size(); i++) {
                SliceCopy copy = image.cut(map.slicesOf(rank).get(i));
                INDArray[] slots = new INDArray[copy.state().length];
                for (int k = 0; k < slots.length; k++) {
                    slots[k] = Nd4j.createFromArray(copy.state()[k]);
                }
                locked.get(i).resetTo(copy.values(), OptimizerState.of(slots), image.step(), failed);
            }
            policy.discardPending();
            policy.restoreClocks(image.step(), image.resumeClocks(), image.appliedClocks(rank, map.servers()));
            LedgerEntries.restore(ledger, image.ledgerFor(rank, map.servers()));
            if (sparse != null) {
                sparse.restore(image.sparse(), owned);
            }
            checkpointer.rolledBack(image.step());
        } finally {
            locked.forEach(DenseSlice::unlock);
        }
        PsException why = new PsException(ErrorCode.ROLLED_BACK, "server " + rank + " rolled back to checkpoint step "
                + image.step() + " because the server set changed; resume from step " + image.step());
        failed.forEach(f -> f.completeExceptionally(why));
        log.warn("Rolled back {} slices and {} sparse tables to checkpoint step {} for server set [{}] ({} waiting "
                + "pulls failed)", locked.size(), image.sparse().size(), image.step(), request.servers(), failed.size());
    }
}

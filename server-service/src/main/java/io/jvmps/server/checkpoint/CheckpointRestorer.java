package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.DenseDeclared;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.server.sparse.SparseRows;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * Puts a checkpoint read at start-up back into the store when the workers declare the model: the
 * server cuts its own slices (by its shard map, whatever server count wrote the checkpoint) with
 * their values, optimizer state and version. Thread-safe.
 */
public final class CheckpointRestorer {
    private static final Logger log = LoggerFactory.getLogger(CheckpointRestorer.class);

    private final CheckpointImage image;
    private final Path from;
    private final DenseStore store;
    private final Checkpointer checkpointer;
    private final io.jvmps.server.consistency.PushLedger ledger;
    private final io.jvmps.server.consistency.ConsistencyPolicy policy;

    /**
     * @param image        the checkpoint to restore, or null to start fresh
     * @param from         where it was read, or null
     * @param store        the slices
     * @param checkpointer told the restored step (may be null when checkpoints are off)
     */
    public CheckpointRestorer(CheckpointImage image, Path from, DenseStore store, Checkpointer checkpointer) {
        this(image, from, store, checkpointer, null);
    }

    /** Same, also restoring the push ledger ({@code ledger} may be null). */
    public CheckpointRestorer(CheckpointImage image, Path from, DenseStore store, Checkpointer checkpointer,
                              io.jvmps.server.consistency.PushLedger ledger) {
        this(image, from, store, checkpointer, ledger, null);
    }

    /**
     * Same, also keeping the checkpoint's sparse tables for their declaration ({@code sparse} may be null):
     * a table declared later starts from the saved rows this server owns under the current server count.
     */
    public CheckpointRestorer(CheckpointImage image, Path from, DenseStore store, Checkpointer checkpointer,
                              io.jvmps.server.consistency.PushLedger ledger, io.jvmps.server.sparse.SparseTables sparse) {
        this(image, from, store, checkpointer, ledger, sparse, null, null);
    }

    /**
     * Same, where {@code image} holds the sparse tables without their rows and {@code ownedRows} reads the
     * rows this server owns at the first declaration (null: the image holds the rows), and the workers'
     * clocks go back into {@code policy} with the slices (null: not restored).
     */
    public CheckpointRestorer(CheckpointImage image, Path from, DenseStore store, Checkpointer checkpointer,
                              io.jvmps.server.consistency.PushLedger ledger, io.jvmps.server.sparse.SparseTables sparse,
                              Function<LongPredicate, List<SparseRows>> ownedRows,
                              io.jvmps.server.consistency.ConsistencyPolicy policy) {
        this.policy = policy;
        if (image != null && sparse != null && !image.sparse().isEmpty()) {
            sparse.restoreWhenDeclared(image.sparse(), ownedRows);
            log.info("Sparse tables {} will be restored from step {} when declared{}",
                    image.sparse().stream().map(t -> t.spec().name()).toList(), image.step(), ownedRows != null
                            ? " (each server reads the rows it owns then)"
                            : " (" + image.sparse().stream().mapToLong(SparseRows::rows).sum() + " rows)");
        }
        this.ledger = ledger;
        this.image = image == null ? null : image.withoutSparse();
        this.from = from;
        this.store = store;
        this.checkpointer = checkpointer;
        if (image != null && checkpointer != null) {
            checkpointer.restoredAt(image.step());
        }
    }

    /** @return true when a checkpoint was found to restore (its slices come back when the model is declared) */
    public boolean hasCheckpoint() {
        return image != null;
    }

    /** @return the step slices start from: the checkpoint's, or 0 */
    public long step() {
        return image == null ? 0 : image.step();
    }

    /**
     * Creates this server's slices from the checkpoint (those that do not exist yet).
     *
     * @param map  the declared model's shard map
     * @param rank this server's rank
     * @return the answer to the declaration
     * @throws PsException {@link ErrorCode#INVALID_ARGUMENT} when the checkpoint holds another model
     */
    public DenseDeclared restoreInto(ShardMap map, int rank) {
        if (image == null) {
            return new DenseDeclared(rank, 0, 0, "");
        }
        if (!image.params().equals(map.params())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the checkpoint at step " + image.step() + " in " + from
                    + " holds the model " + image.params() + " but the workers declare " + map.params()
                    + "; point ps.checkpoint.dir elsewhere or set ps.checkpoint.restore=NONE to start fresh");
        }
        int created = 0;
        for (Slice slice : map.slicesOf(rank)) {
            SliceCopy copy = image.cut(slice);
            INDArray[] slots = new INDArray[copy.state().length];
            for (int s = 0; s < slots.length; s++) {
                slots[s] = Nd4j.createFromArray(copy.state()[s]);
            }
            if (store.restore(slice.key(), Nd4j.createFromArray(copy.values()), OptimizerState.of(slots),
                    image.step())) {
                created++;
            }
        }
        if (created > 0) {
            LedgerEntries.restore(ledger, image.ledgerFor(rank, map.servers()));
            if (policy != null) {
                policy.restoreClocks(image.step(), image.resumeClocks(), image.appliedClocks(rank, map.servers()));
            }
            log.info("Restored {} slices at step {} from {} (optimizer {} state included)", created, image.step(), from,
                    image.optimizer());
        }
        return new DenseDeclared(rank, image.step(), created, from.toString());
    }
}

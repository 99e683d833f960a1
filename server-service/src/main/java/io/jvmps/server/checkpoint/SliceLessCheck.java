package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;

/**
 * Refuses the one job shape whose checkpoints could never be complete: a dense model of fewer elements than servers
 * leaves a server without a slice, and with sparse tables that server holds rows of its own but, seeing no dense
 * step, never writes its checkpoint part. (Without tables the lowest slice holder writes the slice-less servers'
 * empty parts, see {@link Checkpointer}.) Only with checkpoints on; stateless and thread-safe.
 */
public final class SliceLessCheck {
    private final boolean checkpointing;

    /** @param checkpointing whether this server writes checkpoints ({@code ps.checkpoint.dir} set) */
    public SliceLessCheck(boolean checkpointing) {
        this.checkpointing = checkpointing;
    }

    /**
     * @param map            the declared dense model's shard map, or null before the declaration
     * @param rank           this server's rank
     * @param tablesDeclared whether the job has (or is declaring) a sparse table
     * @throws PsException INVALID_ARGUMENT when this server holds no slice, the job has tables and checkpoints are on
     */
    public void require(ShardMap map, int rank, boolean tablesDeclared) {
        if (!checkpointing || map == null || !tablesDeclared || rank < 0 || !map.slicesOf(rank).isEmpty()) {
            return;
        }
        long elements = map.params().stream().mapToLong(ParamSpec::elements).sum();
        throw new PsException(ErrorCode.INVALID_ARGUMENT, "the job's dense model has " + elements + " element(s) for "
                + map.servers() + " servers, so server " + rank + " holds no slice of it; with sparse tables such a "
                + "server could never write its part of a checkpoint (ps.checkpoint.dir is set): give the dense model "
                + "at least " + map.servers() + " elements, or run fewer servers");
    }
}

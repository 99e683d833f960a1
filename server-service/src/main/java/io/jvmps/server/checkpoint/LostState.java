package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.cluster.ServerIdentity;

/**
 * Whether this server may create its parameters afresh. A server that took its rank in a job that had already
 * started replaces a lost one: the trained values of its slices and sparse rows were there, and come back only
 * from a checkpoint. Without one, creating them at their initial values would serve fresh values next to
 * trained ones, so every request that would do so is refused with {@code STATE_LOST} and the job ends.
 * Thread-safe.
 */
public final class LostState {
    private final ServerIdentity identity;
    private final CheckpointRestorer restorer;

    /**
     * @param identity knows whether this process replaced a server of a running job
     * @param restorer knows whether a checkpoint was found to restore
     */
    public LostState(ServerIdentity identity, CheckpointRestorer restorer) {
        this.identity = identity;
        this.restorer = restorer;
    }

    /** @return true when this server's trained values are gone and must not be created afresh */
    public boolean lost() {
        return identity.replacement() && !restorer.hasCheckpoint();
    }

    /**
     * @param what what would be created afresh, for the message ("slice 0/3", "sparse table 'emb'")
     * @throws PsException STATE_LOST when {@link #lost()}
     */
    public void requireNotLost(String what) {
        if (lost()) {
            throw new PsException(ErrorCode.STATE_LOST, "server rank " + identity.rank() + " replaced a lost server "
                    + "of a running job and has no checkpoint to restore its parameters from, so " + what + " would "
                    + "start at fresh values next to trained ones; the trained values are gone and the job cannot go "
                    + "on. Start it again (keep checkpoints on: ps.checkpoint.dir shared by every server, "
                    + "ps.checkpoint.every-steps)");
        }
    }
}

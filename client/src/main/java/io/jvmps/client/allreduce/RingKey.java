package io.jvmps.client.allreduce;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * Identifies one message of the ring: a worker receives exactly one segment per (step, phase, round),
 * from its left neighbour.
 *
 * @param step  training step
 * @param phase ring phase
 * @param round 0-based round within the phase (0 .. workers - 2)
 */
public record RingKey(long step, RingPhase phase, int round) {

    /** @return phase and round packed into a frame's tag: {@code phase << 32 | round} */
    public long tag() {
        return ((long) phase.ordinal() << 32) | round;
    }

    /**
     * @param step a frame's step
     * @param tag  a frame's tag, as made by {@link #tag()}
     * @return the key
     * @throws PsException MALFORMED_FRAME for a tag that names no phase or a negative round
     */
    public static RingKey of(long step, long tag) {
        int phase = (int) (tag >>> 32);
        int round = (int) tag;
        if (phase >= RingPhase.values().length || round < 0) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "allreduce frame tag " + tag
                    + " names no ring phase and round");
        }
        return new RingKey(step, RingPhase.values()[phase], round);
    }

    @Override
    public String toString() {
        return "step " + step + " " + phase + " round " + round;
    }
}

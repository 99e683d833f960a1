package io.jvmps.server.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Checkpoints of the dense parameters, bound from {@code ps.checkpoint.*}.
 *
 * @param dir        directory shared by every server of the job (a volume or network file system when
 *                   they are on several hosts); empty (the default) turns checkpoints off
 * @param everySteps write one when the slices reach a multiple of this step; 0 = not by steps
 * @param interval   write one at the next step once this long has passed since the last; 0 = not by time
 * @param keep       complete checkpoints kept; older ones are deleted
 * @param restore    at start-up: LATEST restores the newest complete checkpoint in {@code dir}, NONE starts fresh
 */
@Validated
@ConfigurationProperties("ps.checkpoint")
public record CheckpointProperties(@DefaultValue("") String dir,
                                   @DefaultValue("0") long everySteps,
                                   @DefaultValue("0s") Duration interval,
                                   @DefaultValue("3") int keep,
                                   @DefaultValue("LATEST") Restore restore) {

    /** What a server does with an existing checkpoint at start-up. */
    public enum Restore {
        /** Restore the newest complete checkpoint, if there is one. */
        LATEST,
        /** Ignore existing checkpoints (new ones may still be written). */
        NONE
    }

    /** Checks the values. */
    public CheckpointProperties {
        if (everySteps < 0) {
            throw new IllegalArgumentException("ps.checkpoint.every-steps must be >= 0 (0 = off), got " + everySteps);
        }
        if (interval.isNegative()) {
            throw new IllegalArgumentException("ps.checkpoint.interval must be >= 0 (0 = off), got " + interval);
        }
        if (keep < 1) {
            throw new IllegalArgumentException("ps.checkpoint.keep must be >= 1, got " + keep);
        }
    }

    /** @return true when a directory is set */
    public boolean enabled() {
        return dir != null && !dir.isBlank();
    }
}

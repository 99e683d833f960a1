package io.jvmps.client.control;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.List;

/**
 * Finds the step a worker joins a job at: it asks every server to expect it from a step on, and when a
 * server refuses that step asks again from the step the server names, until every server accepts the
 * same step. A fresh or restored job accepts the first request. A worker that took over a dead one's
 * rank joins, in SYNC, at the step after the ones the others applied meanwhile; in ASYNC and SSP at the
 * step after its predecessor's last push (the rank's clock on the servers). GEO workers join the same
 * way in rounds (the unit given). Thread-safe for one caller at a time per worker.
 */
public final class StepJoiner {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StepJoiner.class);

    private final ControlClient client;
    private final MonotonicClock clock;
    private final String unit;

    /** Joins in steps. */
    public StepJoiner(ControlClient client, MonotonicClock clock) {
        this(client, clock, "step");
    }

    /** @param unit what the joined number counts, for messages ("step", or "round" in GEO) */
    public StepJoiner(ControlClient client, MonotonicClock clock, String unit) {
        this.client = client;
        this.clock = clock;
        this.unit = unit;
    }

    /**
     * The step this worker's schedule goes on from once the servers hold the parameters of step
     * {@code declared} (a fresh start, a restored checkpoint, or a rollback): SYNC joins at {@code declared}
     * or after the steps the others applied meanwhile; ASYNC and SSP at the rank's clock on the servers (the
     * step after its last push that a restored checkpoint holds, or that its predecessor made); GEO at the
     * first step of the rank's round clock.
     *
     * @throws PsException TIMEOUT when the servers never agree on a step before the deadline
     */
    public static long scheduleStep(ControlClient client, MonotonicClock clock, ServerDescription semantics, String nodeId, long declared,
                             Duration timeout) {
        return switch (semantics.mode()) {
            case SYNC -> new StepJoiner(client, clock).join(nodeId, declared, declared, timeout);
            case ASYNC, SSP -> new StepJoiner(client, clock).join(nodeId, 0, declared, timeout);
            case GEO -> {
                int interval = semantics.geoInterval();
                yield interval * new StepJoiner(client, clock, "round").join(nodeId, 0, declared / interval, timeout);
            }
        };
    }

    /**
     * @param nodeId  this worker's node id
     * @param from    the first step to ask for
     * @param usual   the step a worker of a job nobody left starts at: a later one is logged as a join of a
     *                running job
     * @param timeout how long to keep asking
     * @return the step every server expects this worker from
     * @throws PsException TIMEOUT when the servers kept moving past the asked step until the deadline
     */
    public long join(String nodeId, long from, long usual, Duration timeout) {
        long step = firstAccepted(nodeId, from, timeout);
        if (step > usual) {
            log.warn("Joined a running job at {} {} as worker rank {}: this rank's schedule goes on from there "
                    + "(a worker that took over a dead rank does not train its predecessor's batches between their "
                    + "last push and this {})", unit, step, client.rank(), unit);
        }
        return step;
    }

    private long firstAccepted(String nodeId, long from, Duration timeout) {
        Deadline deadline = Deadline.after(timeout, clock);
        long step = from;
        while (true) {
            List<JoinAnswer> answers = client.join(nodeId, step);
            long newest = answers.stream().mapToLong(JoinAnswer::maxVersion).max().orElse(step);
            if (answers.stream().allMatch(JoinAnswer::accepted)) {
                return step;
            }
            if (deadline.passed()) {
                throw new PsException(ErrorCode.TIMEOUT, "could not join the job within " + timeout
                        + ": the servers had applied up to " + unit + " " + newest + ", last asked for " + unit + " "
                        + step
                        + " (" + answers + ")");
            }
            step = Math.max(step + 1, newest);
        }
    }
}

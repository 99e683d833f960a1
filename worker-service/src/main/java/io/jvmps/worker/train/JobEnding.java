package io.jvmps.worker.train;

import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;

/**
 * How a worker's job that did not finish says why, once, in its log and in its state: a stop the operator asked
 * for (SIGTERM interrupts the training thread) is one WARN line; a failure the product names (a
 * {@link PsException}: bad data, a wrong secret, a server that did not come) is one ERROR line with its code and
 * reason; anything else is an ERROR with the stack trace, because only that says where an unexpected error came
 * from. Immutable.
 *
 * @param reason    what the worker's state and status show as the reason
 * @param stopped   whether the job was stopped, not failed
 * @param unforeseen whether the error is not one the product names (its stack trace is logged)
 */
public record JobEnding(String reason, boolean stopped, boolean unforeseen) {
    /** What a stopped job's state says. */
    public static final String STOPPED = "the worker was asked to shut down before training finished";

    /**
     * @param error       what ended the training thread's job
     * @param interrupted whether the training thread's interrupt flag was set when it ended
     * @return how to report it
     */
    public static JobEnding of(RuntimeException error, boolean interrupted) {
        if (interrupted || causedByInterruption(error)) {
            return new JobEnding(STOPPED, true, false);
        }
        return new JobEnding(error.getMessage() != null ? error.getMessage() : error.toString(), false,
                !(error instanceof PsException));
    }

    /** Logs the ending: one line, or the stack trace of an unforeseen error. */
    public void log(Logger log, RuntimeException error) {
        if (stopped) {
            log.warn("Training stopped: {}", reason);
        } else if (unforeseen) {
            log.error("Worker failed: {}", reason, error);
        } else {
            log.error("Worker failed: {}", reason);
        }
    }

    private static boolean causedByInterruption(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }
}

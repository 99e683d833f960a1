package io.jvmps.common.cluster;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;

/**
 * How a node (server or worker) registers with the scheduler: one request per attempt, repeated every
 * {@code retry} while the scheduler cannot be reached or answers a passing error ({@code NOT_READY},
 * {@code INTERNAL}) or the job has no free rank for the role ({@code RESOURCE_EXHAUSTED}: a DEAD node's rank may come
 * free), until {@code timeout}. Any other answer (a bad request, a wrong secret) is a refusal and ends it at once.
 * Blocks the calling thread; stateless, so safe to call from any thread.
 */
public final class Registration {
    private static final Logger log = LoggerFactory.getLogger(Registration.class);

    private Registration() {
    }

    /**
     * @param client  the scheduler's REST client
     * @param request what to register (a first registration, or one with the previous id and rank)
     * @param timeout give up after this long
     * @param retry   pause between attempts
     * @param clock   measures the deadline
     * @return the scheduler's answer
     * @throws PsException the scheduler's refusal as it answered it; {@code TIMEOUT} naming the scheduler, the
     *     timeout and the last error when no attempt succeeded in time; {@code NOT_READY} when the thread was
     *     interrupted while waiting
     */
    public static RegisterResponse register(SchedulerClient client, RegisterRequest request, Duration timeout,
                                            Duration retry, MonotonicClock clock) {
        Deadline deadline = Deadline.after(timeout, clock);
        String role = request.role().name().toLowerCase(Locale.ROOT);
        while (true) {
            PsException e;
            try {
                return client.register(request);
            } catch (PsException failure) {
                e = failure;
            } catch (RuntimeException unexpected) {        // e.g. an answer that is not a registration
                e = new PsException(ErrorCode.INTERNAL, unexpected.toString());
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new PsException(ErrorCode.NOT_READY, "interrupted while registering: " + e.detail());
            }
            boolean full = e.code() == ErrorCode.RESOURCE_EXHAUSTED;
            if (!full && e.code() != ErrorCode.NOT_READY && e.code() != ErrorCode.INTERNAL) {
                throw e;
            }
            if (deadline.passed()) {
                throw new PsException(ErrorCode.TIMEOUT, "scheduler at " + client.base()
                        + (full ? " had no free " + role + " rank" : " did not answer")
                        + " within " + timeout + ": " + e.detail());
            }
            if (full) {
                log.info("the job has all its {}s ({}); waiting for the scheduler to mark one DEAD to take over "
                        + "its rank, retry in {}...", role, e.detail(), readable(retry));
            } else {
                log.info("scheduler at {} not ready ({}), wait {} to retry...", client.base(), e.getMessage(),
                        readable(retry));
            }
            deadline.pause(retry);
        }
    }

    private static String readable(Duration pause) {
        long ms = pause.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " sec" : ms + " ms";
    }
}

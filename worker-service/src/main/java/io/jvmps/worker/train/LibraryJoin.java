package io.jvmps.worker.train;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.allreduce.AllReduceEndpoint;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.time.MonotonicClock;

import java.util.function.Function;

/**
 * How each of the stock worker's jobs takes its place in the cluster: through {@link PsJob}, as any program on the
 * library does, announcing the worker's own AllReduce endpoint. It runs the job's body in the joined job and leaves
 * it FINISHED, or, when the body throws, ends the whole job first if the servers' state is lost, then leaves as
 * failed (DEAD, so a replacement may take the rank) and rethrows. Immutable.
 */
public final class LibraryJoin {
    private final ClientSettings settings;
    private final MonotonicClock clock;
    private final AllReduceEndpoint endpoint;

    /**
     * @param settings the scheduler's address, the secret, TLS and the timeouts, as the worker is configured
     * @param clock    measures every deadline
     * @param endpoint the worker's AllReduce endpoint, announced at registration
     */
    public LibraryJoin(ClientSettings settings, MonotonicClock clock, AllReduceEndpoint endpoint) {
        this.settings = settings;
        this.clock = clock;
        this.endpoint = endpoint;
    }

    /** @return how the worker joins: the scheduler, the secret, TLS, the timeouts */
    public ClientSettings settings() {
        return settings;
    }

    /** @return the clock every deadline is measured on */
    public MonotonicClock clock() {
        return clock;
    }

    /**
     * Joins, runs {@code body} and leaves; the session is the job's from here (closed when it ends).
     *
     * @param session  the worker's scheduler session, not yet registered
     * @param httpPort this worker's HTTP port, shown in the cluster view
     * @return what the body returned
     * @throws RuntimeException what the join or the body threw, after the job was left as failed
     */
    public <T> T run(SchedulerSession session, int httpPort, Function<PsJob, T> body) {
        try (PsJob job = PsJob.join(settings, clock, session, httpPort, endpoint)) {
            try {
                return body.apply(job);
            } catch (RuntimeException e) {
                if (e instanceof PsException p && p.code() == ErrorCode.STATE_LOST) {
                    session.failJob(p.detail()); // the job cannot go on: every node learns it, once
                }
                job.fail();
                throw e;
            }
        }
    }
}

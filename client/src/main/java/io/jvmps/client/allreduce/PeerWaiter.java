package io.jvmps.client.allreduce;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.List;

/**
 * Finds the AllReduce peers: polls the scheduler's cluster view until every expected worker has
 * registered with an RSocket port, and returns them by rank. Fails with TIMEOUT naming what is
 * missing at the deadline.
 */
public class PeerWaiter {
    private static final Logger log = LoggerFactory.getLogger(PeerWaiter.class);

    private final SchedulerClient scheduler;
    private final MonotonicClock clock;

    /** @param clock measures the deadline */
    public PeerWaiter(SchedulerClient scheduler, MonotonicClock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /**
     * @param workers  workers the job has
     * @param timeout  overall deadline
     * @param interval pause between two looks
     * @return the first {@code workers} workers, by rank, each with an RSocket endpoint
     */
    public List<NodeInfo> await(int workers, Duration timeout, Duration interval) {
        Deadline deadline = Deadline.after(timeout, clock);
        while (true) {
            String missing;
            try {
                ClusterView view = scheduler.cluster();
                List<NodeInfo> peers = view.workers().stream().filter(w -> w.rank() < workers).toList();
                List<NodeInfo> withPort = peers.stream().filter(w -> w.rsocketPort() > 0).toList();
                if (withPort.size() == workers) {
                    return withPort;
                }
                missing = "registered workers with an RSocket port: "
                        + withPort.stream().map(w -> w.rank() + "@" + w.rsocketEndpoint()).toList() + " of " + workers;
            } catch (PsException e) {
                missing = "scheduler " + scheduler.base() + " unreachable (" + e.getMessage() + ")";
            }
            if (deadline.passedAfter(interval)) {
                throw new PsException(ErrorCode.TIMEOUT, "allreduce peers not ready after " + timeout + ": " + missing);
            }
            log.info("allreduce peers not ready, wait {} ms to retry... {}", interval.toMillis(), missing);
            deadline.pause(interval);
        }
    }
}

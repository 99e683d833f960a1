package io.jvmps.client.allreduce;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Finds the AllReduce peers: polls the scheduler's cluster view until every expected worker has
 * registered with an RSocket port, and returns them by rank. Fails with TIMEOUT naming what is
 * missing at the deadline.
 */
public class PeerWaiter {
    private static final Logger log = LoggerFactory.getLogger(PeerWaiter.class);

    private final SchedulerClient scheduler;
    private final Clock clock;

    public PeerWaiter(SchedulerClient scheduler, Clock clock) {
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
        Instant deadline = clock.instant().plus(timeout);
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
            if (!clock.instant().plus(interval).isBefore(deadline)) {
                throw new PsException(ErrorCode.TIMEOUT, "allreduce peers not ready after " + timeout + ": " + missing);
            }
            log.info("allreduce peers not ready, wait {} ms to retry... {}", interval.toMillis(), missing);
            LockSupport.parkNanos(interval.toNanos());
        }
    }
}

package io.jvmps.scheduler.health;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.scheduler.config.SchedulerProperties;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.jvmps.common.time.MonotonicClock;

import java.time.Duration;
import java.util.List;

/**
 * Marks nodes DEAD when their last heartbeat is at least {@code ps.scheduler.heartbeat-timeout} old, measured
 * on the monotonic clock (a step of the host's date marks nobody). One {@link #check()} is one pass;
 * {@link FailureDetectorLoop} runs it periodically, tests call it directly with a hand-moved clock. Thread-safe (the registry does the atomic part).
 */
@Component
public class FailureDetector {
    private static final Logger log = LoggerFactory.getLogger(FailureDetector.class);

    private final NodeRegistry registry;
    private final MonotonicClock clock;
    private final Duration timeout;

    /**
     * @param registry   the registry whose nodes are watched
     * @param clock      the monotonic time source heartbeat ages are measured on
     * @param properties supplies the heartbeat timeout
     */
    public FailureDetector(NodeRegistry registry, MonotonicClock clock, SchedulerProperties properties) {
        this.registry = registry;
        this.clock = clock;
        this.timeout = properties.heartbeatTimeout();
    }

    /** @return the nodes marked DEAD by this pass (each one logged) */
    public List<NodeInfo> check() {
        List<NodeRegistry.Silent> silent = registry.expireSilent(clock.nanos(), timeout);
        List<NodeInfo> dead = silent.stream().map(NodeRegistry.Silent::node).toList();
        for (NodeRegistry.Silent s : silent) {
            NodeInfo node = s.node();
            log.info("Node {} ({} rank {}) missed heartbeats for {} ms, marked DEAD", node.nodeId(),
                    node.role().label(), node.rank(), s.silentFor().toMillis());
        }
        if (!dead.isEmpty()) {
            log.info("Cluster view epoch is now {} after {} node(s) marked DEAD", registry.epoch(), dead.size());
        }
        return dead;
    }
}

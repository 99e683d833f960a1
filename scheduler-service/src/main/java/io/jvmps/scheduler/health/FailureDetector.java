package io.jvmps.scheduler.health;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.scheduler.config.SchedulerProperties;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.List;

/**
 * Marks nodes DEAD when their last heartbeat is at least {@code ps.scheduler.heartbeat-timeout} old.
 * One {@link #check()} is one pass; {@link FailureDetectorLoop} runs it periodically, tests call it
 * directly with a hand-moved clock. Thread-safe (the registry does the atomic part).
 */
@Component
public class FailureDetector {
    private static final Logger log = LoggerFactory.getLogger(FailureDetector.class);

    private final NodeRegistry registry;
    private final Clock clock;
    private final long timeoutMillis;

    /**
     * @param registry   the registry whose nodes are watched
     * @param clock      the time source
     * @param properties supplies the heartbeat timeout
     */
    public FailureDetector(NodeRegistry registry, Clock clock, SchedulerProperties properties) {
        this.registry = registry;
        this.clock = clock;
        this.timeoutMillis = properties.heartbeatTimeout().toMillis();
    }

    /** @return the nodes marked DEAD by this pass (each one logged) */
    public List<NodeInfo> check() {
        long now = clock.millis();
        List<NodeInfo> dead = registry.expireSilent(now, timeoutMillis);
        for (NodeInfo node : dead) {
            log.info("Node {} ({} rank {}) missed heartbeats for {} ms, marked DEAD", node.nodeId(),
                    node.role().label(), node.rank(), now - node.lastHeartbeatMillis());
        }
        if (!dead.isEmpty()) {
            log.info("Cluster view epoch is now {} after {} node(s) marked DEAD", registry.epoch(), dead.size());
        }
        return dead;
    }
}

package io.jvmps.client.control;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.client.transport.ServerConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Waits until every expected server has registered with the scheduler and answers on its RSocket
 * endpoint. Logs {@code server not ready, wait 3 sec to retry...} with what is missing on each
 * round, and fails with {@link ErrorCode#TIMEOUT} naming the missing ranks or endpoints at the
 * deadline.
 */
public class ServerWaiter {
    private static final Logger log = LoggerFactory.getLogger(ServerWaiter.class);

    private final SchedulerClient scheduler;
    private final MonotonicClock clock;

    /**
     * @param scheduler where the servers register
     * @param clock     measures the deadline
     */
    public ServerWaiter(SchedulerClient scheduler, MonotonicClock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /**
     * @param expected number of servers the job has
     * @param timeout  overall deadline
     * @param interval pause between rounds
     * @param probe    tries to reach the given servers; returns the endpoints that did not answer
     * @return the alive servers, by rank, all reachable
     */
    public List<NodeInfo> await(int expected, Duration timeout, Duration interval,
                                Function<List<NodeInfo>, List<String>> probe) {
        Deadline deadline = Deadline.after(timeout, clock);
        while (true) {
            List<NodeInfo> servers = aliveServers();
            String missing;
            if (servers == null) {
                missing = "scheduler " + scheduler.base() + " unreachable";
            } else if (servers.size() < expected) {
                missing = describeMissing(servers, expected);
            } else {
                List<String> unreachable = probe.apply(servers);
                if (unreachable.isEmpty()) {
                    log.info("all {} servers reachable: {}", servers.size(),
                            servers.stream().map(NodeInfo::rsocketEndpoint).toList());
                    return servers;
                }
                missing = "unreachable endpoints " + unreachable;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new PsException(ErrorCode.NOT_READY, "interrupted while waiting for servers: " + missing);
            }
            if (deadline.passedAfter(interval)) {
                throw new PsException(ErrorCode.TIMEOUT, "servers not ready after " + timeout + ": " + missing);
            }
            log.info("server not ready, wait {} sec to retry... {}", interval.toSeconds(), missing);
            deadline.pause(interval);
        }
    }

    /**
     * Waits until every expected server is registered and answers, then returns connections to them.
     *
     * @param expected number of servers the job has
     * @param timeout  overall deadline
     * @param interval pause between rounds (each server's status probe waits this plus 2 s)
     * @param settings how to connect
     * @return connections to servers 0 .. expected-1, each of which answered
     * @throws PsException TIMEOUT naming what was missing at the deadline; UNAUTHENTICATED when a server
     *                     refused the cluster secret
     */
    public ServerConnections connect(int expected, Duration timeout, Duration interval, ConnectionSettings settings) {
        AtomicReference<ServerConnections> connected = new AtomicReference<>();
        await(expected, timeout, interval, servers -> {
            ServerConnections candidate = new ServerConnections(servers.subList(0, expected), settings);
            List<String> failed = candidate.probe(interval.plusSeconds(2));
            if (failed.isEmpty()) {
                connected.set(candidate);
            } else {
                candidate.close();
            }
            return failed;
        });
        return connected.get();
    }

    private List<NodeInfo> aliveServers() {
        try {
            ClusterView view = scheduler.cluster();
            return view.servers().stream().filter(s -> s.state() == NodeState.ALIVE).toList();
        } catch (PsException e) {
            return null;
        }
    }

    private static String describeMissing(List<NodeInfo> servers, int expected) {
        List<Integer> ranks = servers.stream().map(NodeInfo::rank).toList();
        return "registered " + servers.size() + "/" + expected + " servers "
                + servers.stream().map(NodeInfo::rsocketEndpoint).toList() + ", missing ranks "
                + IntStream.range(0, expected).filter(r -> !ranks.contains(r)).boxed()
                .map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}

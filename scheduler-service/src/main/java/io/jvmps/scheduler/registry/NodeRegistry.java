package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.security.NodeToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.jvmps.common.time.MonotonicClock;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduler's membership table. Assigns dense per-role ranks in registration order, keeps each
 * node's state, and stamps every membership or state change with a new epoch. How long a node has
 * been silent is measured on the monotonic clock, so a step of the host's date never makes a node look dead
 * or alive; the wall clock only stamps the heartbeat time shown in views. All methods are
 * atomic (one lock; the operations are tiny and rare), views are immutable snapshots.
 */
@Component
public class NodeRegistry {
    private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);
    private static final int MAX_ID_ATTEMPTS = 64;

    private final Clock clock;
    private final MonotonicClock monotonic;
    private final NodeIdGenerator ids;
    private final Map<String, Long> heardNanos = new HashMap<>();
    private final Map<NodeRole, Integer> expected = new EnumMap<>(NodeRole.class);
    private final int workerCapacity;
    private final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    private final Map<String, String> tokens = new HashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Map<NodeRole, Long> registrations = new EnumMap<>(NodeRole.class);
    private final Sinks.Many<ClusterView> changes = Sinks.many().replay().latest();
    private long epoch;
    private boolean startAnnounced;

    /**
     * @param cluster expected counts per role
     * @param clock     wall clock: the heartbeat times shown in views
     * @param monotonic what heartbeat ages are measured on
     * @param ids       node id source
     */
    public NodeRegistry(ClusterProperties cluster, Clock clock, MonotonicClock monotonic, NodeIdGenerator ids) {
        this.clock = clock;
        this.monotonic = monotonic;
        this.ids = ids;
        expected.put(NodeRole.SERVER, cluster.serverNum());
        expected.put(NodeRole.WORKER, cluster.workerNum());
        this.workerCapacity = cluster.workerCapacity();
    }

    /**
     * Registers a server or worker (see the class comment for rank rules).
     *
     * @throws PsException INVALID_ARGUMENT for bad input; {@link ClusterFullException} when the role is full
     */
    public synchronized Registration register(RegisterRequest request) {
        return register(request, null);
    }

    /**
     * Registers a server or worker (see the class comment for rank rules); each registration draws a new node token.
     *
     * @param presentedToken the caller's node token ({@link NodeToken#HTTP_HEADER}), or null: a node that comes back
     *                       under the id of a node that is not DEAD must present that node's token
     * @throws PsException INVALID_ARGUMENT for bad input; UNAUTHENTICATED for a live id without its token;
     *                     {@link ClusterFullException} when the role is full
     */
    public synchronized Registration register(RegisterRequest request, String presentedToken) {
        long before = epoch;
        Registration registration = registerLocked(request, presentedToken);
        publishIfChanged(before);
        return registration;
    }

    private Registration registerLocked(RegisterRequest request, String presentedToken) {
        RegistrationValidator.validate(request);
        NodeRole role = request.role();
        NodeInfo previous = request.previousNodeId() == null ? null : nodes.get(request.previousNodeId());
        if (previous != null) {
            if (previous.state() != NodeState.DEAD && !NodeToken.matches(tokens.get(previous.nodeId()), presentedToken)) {
                throw new PsException(ErrorCode.UNAUTHENTICATED, "node id '" + previous.nodeId() + "' is "
                        + previous.state() + ": only that node may register under it again (send its "
                        + NodeToken.HTTP_HEADER + ")");
            }
            return reregister(previous, request);
        }
        if (request.previousNodeId() != null) {
            Integer rank = request.previousRank();
            if (rank != null && rank >= 0 && rank < expected(role) && !rankTaken(role, rank)
                    && !nodes.containsKey(request.previousNodeId())) {
                NodeInfo node = new NodeInfo(request.previousNodeId(), role, rank, request.host(),
                        request.rsocketPort(), request.httpPort(), NodeState.ALIVE, clock.millis());
                heard(node);
                log.info("The {} node id:{} came back with its rank id:{} (this scheduler did not know it: restarted?)",
                        role.label(), node.nodeId(), rank);
                return done(node, Registration.Kind.REREGISTERED, null);
            }
            log.info("Previous node id {} is unknown here; registering it as a new {}", request.previousNodeId(),
                    role.label());
        }
        if (registered(role) < expected(role)) {
            NodeInfo node = store(request, lowestFreeRank(role), null);
            log.info("The {} node id:{}, assign rank id:{}", role.label(), node.nodeId(), node.rank());
            return done(node, Registration.Kind.NEW, null);
        }
        Optional<NodeInfo> firstDead = firstDead(role);
        if (firstDead.isEmpty() && role == NodeRole.WORKER && registered(role) < workerCapacity) {
            NodeInfo node = store(request, lowestFreeRank(role), null);
            log.info("The {} node id:{}, assign rank id:{} (scale-out: beyond ps.cluster.worker-num={}, up to "
                    + "ps.cluster.max-worker-num={})", role.label(), node.nodeId(), node.rank(), expected(role),
                    workerCapacity);
            return done(node, Registration.Kind.NEW, null);
        }
        NodeInfo dead = firstDead.orElseThrow(() -> full(role));
        NodeInfo node = store(request, dead.rank(), dead.nodeId());
        log.info("The {} node id:{}, assign rank id:{}", role.label(), node.nodeId(), node.rank());
        Registration registration = done(node, Registration.Kind.TAKEOVER, dead.nodeId());
        log.info("Node {} took over {} rank {} from dead node {} (epoch {})", node.nodeId(), role.label(),
                node.rank(), dead.nodeId(), registration.view().epoch());
        return registration;
    }

    /**
     * Records a heartbeat. A DEAD node that heartbeats again is marked ALIVE (new epoch).
     *
     * @return the current view
     * @throws PsException UNKNOWN_KEY if the id is not registered
     */
    public synchronized ClusterView heartbeat(String nodeId) {
        NodeInfo node = require(nodeId);
        return heartbeat(node);
    }

    /**
     * Records a heartbeat of a node that proved its identity.
     *
     * @throws PsException UNKNOWN_KEY if the id is not registered; UNAUTHENTICATED without the node's token
     */
    public synchronized ClusterView heartbeat(String nodeId, String presentedToken) {
        return heartbeat(authenticate(nodeId, presentedToken));
    }

    private ClusterView heartbeat(NodeInfo node) {
        String nodeId = node.nodeId();
        Duration silent = silentFor(nodeId, monotonic.nanos());
        NodeInfo updated = node.withHeartbeat(clock.millis());
        if (node.state() == NodeState.DEAD) {
            updated = updated.withState(NodeState.ALIVE);
            epoch++;
            log.info("Node {} ({} rank {}) heartbeat resumed after {} ms, marked ALIVE (epoch {})", nodeId,
                    node.role().label(), node.rank(), silent.toMillis(), epoch);
        }
        heard(updated);
        if (node.state() == NodeState.DEAD) {
            publish();
        }
        return view();
    }

    /**
     * Marks a node FINISHED: it left on purpose and is no longer watched for heartbeats. A server that
     * leaves while the job still needs it (a worker is alive, or none has finished yet: it was stopped, e.g.
     * with its host's engine or by a rolling update) is marked DEAD instead, so that a replacement can take
     * its rank and restore its part of the checkpoint.
     *
     * @throws PsException UNKNOWN_KEY if the id is not registered
     */
    public synchronized ClusterView leave(String nodeId) {
        NodeInfo node = require(nodeId);
        if (node.role() == NodeRole.SERVER && node.state() == NodeState.ALIVE && jobNeedsServers()) {
            mark(node, NodeState.DEAD, "left while the job still needs it (" + count(NodeRole.WORKER, NodeState.ALIVE)
                    + " workers alive, " + count(NodeRole.WORKER, NodeState.FINISHED) + " finished)",
                    " so that a replacement can take its rank");
        } else if (node.state() != NodeState.FINISHED) {
            mark(node, NodeState.FINISHED, "left", "");
        }
        return view();
    }

    private boolean jobNeedsServers() {
        return count(NodeRole.WORKER, NodeState.ALIVE) > 0 || count(NodeRole.WORKER, NodeState.FINISHED) == 0;
    }

    /**
     * Marks a node DEAD at once because it said it failed and is going away: a replacement can take its
     * rank now instead of after the heartbeat timeout. A node already FINISHED or DEAD stays as it is.
     *
     * @throws PsException UNKNOWN_KEY if the id is not registered
     */
    public synchronized ClusterView fail(String nodeId) {
        NodeInfo node = require(nodeId);
        if (node.state() == NodeState.ALIVE) {
            mark(node, NodeState.DEAD, "left after failing", "");
        }
        return view();
    }

    /** Moves a node to {@code state}, bumps the epoch, logs why and publishes the new view. */
    private void mark(NodeInfo node, NodeState state, String why, String purpose) {
        nodes.put(node.nodeId(), node.withState(state));
        epoch++;
        log.info("Node {} ({} rank {}) {}, marked {}{} (epoch {})", node.nodeId(), node.role().label(), node.rank(),
                why, state, purpose, epoch);
        publish();
    }

    /**
     * A node the failure detector marked DEAD.
     *
     * @param node      the node as it was before (its last heartbeat intact)
     * @param silentFor how long it had been silent, on the monotonic clock
     */
    public record Silent(NodeInfo node, Duration silentFor) {
    }

    /**
     * Marks every ALIVE node that has been silent for at least {@code timeout} (its last registration or
     * heartbeat, on the monotonic clock) as DEAD, bumping the epoch once per node.
     *
     * @param nowNanos the monotonic clock's current reading
     * @param timeout  the heartbeat timeout
     * @return the nodes that were just marked DEAD
     */
    public synchronized List<Silent> expireSilent(long nowNanos, Duration timeout) {
        List<Silent> expired = new ArrayList<>();
        for (NodeInfo node : nodes.values()) {
            Duration silent = silentFor(node.nodeId(), nowNanos);
            if (node.state() == NodeState.ALIVE && silent.compareTo(timeout) >= 0) {
                expired.add(new Silent(node, silent));
            }
        }
        for (Silent s : expired) {
            nodes.put(s.node().nodeId(), s.node().withState(NodeState.DEAD));
            epoch++;
        }
        if (!expired.isEmpty()) {
            publish();
        }
        return expired;
    }

    private Duration silentFor(String nodeId, long nowNanos) {
        Long heard = heardNanos.get(nodeId);
        return heard == null ? Duration.ZERO : Duration.ofNanos(nowNanos - heard);
    }

    /** Stores the node and stamps now, on the monotonic clock, as when it was last heard from. */
    private void heard(NodeInfo node) {
        nodes.put(node.nodeId(), node);
        heardNanos.put(node.nodeId(), monotonic.nanos());
    }

    /**
     * The registry as it is kept across a restart of the scheduler.
     *
     * @param epoch          the cluster view's epoch
     * @param startAnnounced whether every node of the job had registered
     * @param nodes          every node, in registration order
     * @param registrations  registrations accepted so far, by role
     */
    public record Saved(long epoch, boolean startAnnounced, List<NodeInfo> nodes, Map<NodeRole, Long> registrations,
                        Map<String, String> tokens) {
        /** Never prints the tokens. */
        @Override
        public String toString() {
            return "Saved[epoch=" + epoch + ", nodes=" + nodes.size() + "]";
        }
    }

    /** @return the registry's state, for {@link #restore} after a restart */
    public synchronized Saved save() {
        return new Saved(epoch, startAnnounced, List.copyOf(nodes.values()), Map.copyOf(registrations),
                Map.copyOf(tokens));
    }

    /**
     * Takes back a saved state (at start-up, before any request). Every node's silence is measured from now, so
     * nodes get a full heartbeat timeout to reach the restarted scheduler; the epoch moves on by one, so views
     * of the restored cluster are newer than any a node saw before.
     */
    public synchronized void restore(Saved saved) {
        nodes.clear();
        heardNanos.clear();
        for (NodeInfo node : saved.nodes()) {
            heard(node);
        }
        registrations.clear();
        registrations.putAll(saved.registrations());
        tokens.clear();
        if (saved.tokens() != null) {
            tokens.putAll(saved.tokens());
        }
        startAnnounced = saved.startAnnounced();
        epoch = saved.epoch() + 1;
        publish();
    }

    /** @return an immutable snapshot of the cluster */
    public synchronized ClusterView view() {
        return new ClusterView(epoch, expected(NodeRole.SERVER), expected(NodeRole.WORKER),
                List.copyOf(nodes.values()));
    }

    /**
     * @return the cluster view after every membership or state change (each new epoch), as it happens; a
     *         new subscriber first gets the latest view published so far (none before the first change)
     */
    public Flux<ClusterView> changes() {
        return changes.asFlux();
    }

    private void publishIfChanged(long before) {
        if (epoch != before) {
            publish();
        }
    }

    /** Called with the lock held, so emissions are serialised and in epoch order. */
    private void publish() {
        changes.tryEmitNext(view());
    }

    /** @return the node with this id, if registered */
    public synchronized Optional<NodeInfo> find(String nodeId) {
        return Optional.ofNullable(nodeId == null ? null : nodes.get(nodeId));
    }

    /** @throws PsException UNKNOWN_KEY naming the id when it is not registered, INVALID_ARGUMENT when it is missing */
    public synchronized NodeInfo require(String nodeId) {
        if (nodeId == null || nodeId.isBlank()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "field nodeId is required: the id this node's "
                    + "registration answered");
        }
        return find(nodeId).orElseThrow(() -> new PsException(ErrorCode.UNKNOWN_KEY,
                "node id '" + nodeId + "' is not registered with this scheduler"));
    }

    /**
     * The node named {@code nodeId}, if {@code presentedToken} is the token its registration answered.
     *
     * @throws PsException INVALID_ARGUMENT without an id, UNKNOWN_KEY for an unknown one, UNAUTHENTICATED when the
     *                     token is missing or is not this node's
     */
    public synchronized NodeInfo authenticate(String nodeId, String presentedToken) {
        NodeInfo node = require(nodeId);
        if (!NodeToken.matches(tokens.get(nodeId), presentedToken)) {
            throw new PsException(ErrorCode.UNAUTHENTICATED, (presentedToken == null ? "no node token" : "wrong node token")
                    + " for node '" + nodeId + "': a call in a node's name needs the " + NodeToken.HTTP_HEADER
                    + " header with the token its registration answered");
        }
        return node;
    }

    /** @return the current epoch (0 before the first registration) */
    public synchronized long epoch() {
        return epoch;
    }

    /** @return how many nodes of the role are registered, in any state */
    public synchronized int registered(NodeRole role) {
        return (int) nodes.values().stream().filter(n -> n.role() == role).count();
    }

    /** @return how many nodes of the role are in the state */
    public synchronized int count(NodeRole role, NodeState state) {
        return (int) nodes.values().stream().filter(n -> n.role() == role && n.state() == state).count();
    }

    /** @return how many nodes of the role the job expects (0 for the scheduler role) */
    public int expected(NodeRole role) {
        return expected.getOrDefault(role, 0);
    }

    /** @return registrations of the role accepted since start (new, re-registered and takeovers) */
    public synchronized long registrations(NodeRole role) {
        return registrations.getOrDefault(role, 0L);
    }

    private boolean rankTaken(NodeRole role, int rank) {
        return nodes.values().stream().anyMatch(n -> n.role() == role && n.rank() == rank);
    }

    private int lowestFreeRank(NodeRole role) {
        int rank = 0;
        while (rankTaken(role, rank)) {
            rank++;
        }
        return rank;
    }

    private Registration reregister(NodeInfo previous, RegisterRequest request) {
        if (previous.role() != request.role()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "node id '" + previous.nodeId() + "' was registered as "
                    + previous.role().label() + ", cannot re-register as " + request.role().label());
        }
        NodeInfo node = new NodeInfo(previous.nodeId(), previous.role(), previous.rank(), request.host(),
                request.rsocketPort(), request.httpPort(), NodeState.ALIVE, clock.millis());
        heard(node);
        log.info("The {} node id:{}, re-registered with rank id:{}", node.role().label(), node.nodeId(), node.rank());
        return done(node, Registration.Kind.REREGISTERED, null);
    }

    private NodeInfo store(RegisterRequest request, int rank, String replacedNodeId) {
        if (replacedNodeId != null) {
            nodes.remove(replacedNodeId);
            heardNanos.remove(replacedNodeId);
            tokens.remove(replacedNodeId);
        }
        NodeInfo node = new NodeInfo(freshId(request.role(), rank), request.role(), rank, request.host(),
                request.rsocketPort(), request.httpPort(), NodeState.ALIVE, clock.millis());
        heard(node);
        return node;
    }

    private Registration done(NodeInfo node, Registration.Kind kind, String replaced) {
        boolean startedBefore = startAnnounced;
        epoch++;
        registrations.merge(node.role(), 1L, Long::sum);
        ClusterView view = view();
        if (!startAnnounced && view.complete()) {
            startAnnounced = true;
            log.info("Start the scheduler node is successful!");
        }
        String token = NodeToken.generate(random);
        tokens.put(node.nodeId(), token);
        return new Registration(node, kind, replaced, view, startedBefore, token);
    }

    private String freshId(NodeRole role, int rank) {
        for (int attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
            String id = ids.next(role, rank);
            if (!nodes.containsKey(id)) {
                return id;
            }
        }
        throw new PsException(ErrorCode.INTERNAL, "could not draw a unique node id for " + role.label() + " rank "
                + rank + " in " + MAX_ID_ATTEMPTS + " attempts");
    }

    private Optional<NodeInfo> firstDead(NodeRole role) {
        return nodes.values().stream().filter(n -> n.role() == role && n.state() == NodeState.DEAD)
                .min(Comparator.comparingInt(NodeInfo::rank));
    }

    /** @return the most workers that may take part (ps.cluster.max-worker-num, or worker-num) */
    public int workerCapacity() {
        return workerCapacity;
    }

    private ClusterFullException full(NodeRole role) {
        String key = role == NodeRole.SERVER ? "ps.cluster.server-num"
                : workerCapacity > expected(role) ? "ps.cluster.max-worker-num" : "ps.cluster.worker-num";
        int cap = role == NodeRole.WORKER ? workerCapacity : expected(role);
        return new ClusterFullException("cannot register another " + role.label() + ": expected "
                + cap + " (" + key + "), currently registered " + registered(role) + " ("
                + count(role, NodeState.ALIVE) + " alive, " + count(role, NodeState.FINISHED)
                + " finished, 0 dead to take over)");
    }
}

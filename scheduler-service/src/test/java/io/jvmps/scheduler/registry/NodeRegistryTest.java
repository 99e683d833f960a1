package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.scheduler.support.MutableClock;
import io.jvmps.scheduler.support.Requests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class NodeRegistryTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2024-01-01T00:00:00Z"));

    private NodeRegistry registry(int servers, int workers) {
        return new NodeRegistry(new ClusterProperties(servers, workers), clock, clock, new NodeIdGenerator(new Random(7)));
    }

    @Test
    void afterASchedulerRestartNodesGetTheirOldIdsAndRanksBack() {
        NodeRegistry fresh = registry(2, 1);
        RegisterRequest server1 = new RegisterRequest(io.jvmps.common.cluster.NodeRole.SERVER, "10.0.0.2", 7001, 8001,
                "server-1-abcd", 1);
        Registration back = fresh.register(server1);
        assertThat(back.node().rank()).isEqualTo(1);
        assertThat(back.node().nodeId()).isEqualTo("server-1-abcd");
        Registration newcomer = fresh.register(Requests.server(7000));
        assertThat(newcomer.node().rank()).as("lowest free rank, not the count").isZero();
        Registration clash = fresh.register(new RegisterRequest(io.jvmps.common.cluster.NodeRole.WORKER, "10.0.0.3",
                0, 8002, "worker-0-beef", 0));
        assertThat(clash.node().rank()).isZero();
        assertThat(fresh.view().servers()).extracting(n -> n.rank()).containsExactly(0, 1);
    }

    @Test
    void ranksAreDensePerRoleInRegistrationOrder() {
        NodeRegistry registry = registry(2, 3);
        assertThat(registry.register(Requests.worker()).node().rank()).isEqualTo(0);
        assertThat(registry.register(Requests.server(9000)).node().rank()).isEqualTo(0);
        assertThat(registry.register(Requests.worker()).node().rank()).isEqualTo(1);
        assertThat(registry.register(Requests.server(9001)).node().rank()).isEqualTo(1);
        assertThat(registry.register(Requests.worker()).node().rank()).isEqualTo(2);

        ClusterView view = registry.view();
        assertThat(view.servers()).extracting(NodeInfo::rank).containsExactly(0, 1);
        assertThat(view.servers()).extracting(NodeInfo::rsocketPort).containsExactly(9000, 9001);
        assertThat(view.workers()).extracting(NodeInfo::rank).containsExactly(0, 1, 2);
        assertThat(view.complete()).isTrue();
    }

    @Test
    void nodeIdsHaveRoleRankAndSeededHexSuffix() {
        String first = registry(1, 1).register(Requests.server(9000)).node().nodeId();
        String again = registry(1, 1).register(Requests.server(9000)).node().nodeId();
        assertThat(first).matches("server-0-[0-9a-f]{4}").isEqualTo(again);
        assertThat(registry(1, 1).register(Requests.worker()).node().nodeId()).matches("worker-0-[0-9a-f]{4}");
    }

    @Test
    void epochIncrementsOnEveryMembershipChange() {
        NodeRegistry registry = registry(1, 1);
        assertThat(registry.epoch()).isZero();
        Registration server = registry.register(Requests.server(9000));
        assertThat(server.view().epoch()).isEqualTo(1);
        Registration worker = registry.register(Requests.worker());
        assertThat(worker.view().epoch()).isEqualTo(2);

        registry.heartbeat(server.node().nodeId());
        assertThat(registry.epoch()).as("a heartbeat is not a membership change").isEqualTo(2);

        registry.leave(worker.node().nodeId());
        assertThat(registry.epoch()).isEqualTo(3);
        registry.leave(worker.node().nodeId());
        assertThat(registry.epoch()).as("leaving twice changes nothing").isEqualTo(3);
        assertThat(registry.require(worker.node().nodeId()).state()).isEqualTo(NodeState.FINISHED);
    }

    @Test
    void reRegistrationKeepsIdAndRankAndUpdatesEndpoint(CapturedOutput output) {
        NodeRegistry registry = registry(2, 1);
        registry.register(Requests.server(9000));
        Registration second = registry.register(Requests.server(9001));
        String id = second.node().nodeId();
        registry.expireSilent(clock.nanos() + Duration.ofSeconds(60).toNanos(), Duration.ofSeconds(30));
        assertThat(registry.require(id).state()).isEqualTo(NodeState.DEAD);
        long epochBefore = registry.epoch();
        clock.advance(Duration.ofMinutes(1));

        RegisterRequest restarted = new RegisterRequest(NodeRole.SERVER, "10.0.0.9", 9100, 8090, id);
        Registration again = registry.register(restarted);

        assertThat(again.kind()).isEqualTo(Registration.Kind.REREGISTERED);
        assertThat(again.node().nodeId()).isEqualTo(id);
        assertThat(again.node().rank()).isEqualTo(1);
        assertThat(again.node().state()).isEqualTo(NodeState.ALIVE);
        assertThat(again.node().rsocketEndpoint()).isEqualTo("10.0.0.9:9100");
        assertThat(again.node().lastHeartbeatMillis()).isEqualTo(clock.millis());
        assertThat(again.view().epoch()).isEqualTo(epochBefore + 1);
        assertThat(registry.registered(NodeRole.SERVER)).isEqualTo(2);
        assertThat(output).contains("The server node id:" + id + ", re-registered with rank id:1");
    }

    @Test
    void reRegistrationWithAnotherRoleIsRejected() {
        NodeRegistry registry = registry(1, 1);
        Registration server = registry.register(Requests.server(9000));
        String id = server.node().nodeId();
        assertThatThrownBy(() -> registry.register(Requests.again(Requests.worker(), id), server.nodeToken()))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("registered as server");
    }

    @Test
    void unknownPreviousIdRegistersAsNew() {
        NodeRegistry registry = registry(1, 1);
        Registration r = registry.register(Requests.again(Requests.worker(), "worker-0-dead"));
        assertThat(r.kind()).isEqualTo(Registration.Kind.NEW);
        assertThat(r.node().nodeId()).isNotEqualTo("worker-0-dead");
    }

    @Test
    void registrationBeyondExpectedCountIsRejectedAndChangesNothing() {
        NodeRegistry registry = registry(1, 2);
        registry.register(Requests.server(9000));
        ClusterView before = registry.view();

        assertThatThrownBy(() -> registry.register(Requests.server(9001)))
                .isInstanceOf(ClusterFullException.class)
                .hasMessageContaining("expected 1 (ps.cluster.server-num)")
                .hasMessageContaining("currently registered 1");
        assertThat(registry.view()).isEqualTo(before);
    }

    @Test
    void aServerStoppedWhileTheJobRunsIsDeadSoAReplacementTakesItsRankButOneLeavingAtTheEndFinished(
            CapturedOutput output) {
        NodeRegistry registry = registry(2, 2);
        String s0 = registry.register(Requests.server(9000)).node().nodeId();
        String s1 = registry.register(Requests.server(9001)).node().nodeId();
        registry.leave(s0);
        assertThat(registry.require(s0).state()).as("no worker has finished: the job needs it")
                .isEqualTo(NodeState.DEAD);
        assertThat(registry.register(Requests.server(9002)).kind()).isEqualTo(Registration.Kind.TAKEOVER);

        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        registry.leave(w0);
        registry.leave(s1);
        assertThat(registry.require(s1).state()).as("worker 1 still trains").isEqualTo(NodeState.DEAD);
        assertThat(output).contains("Node " + s1 + " (server rank 1) left while the job still needs it (1 workers alive, "
                + "1 finished), marked DEAD so that a replacement can take its rank");
        Registration replacement = registry.register(Requests.server(9003));
        assertThat(replacement.kind()).isEqualTo(Registration.Kind.TAKEOVER);
        assertThat(replacement.node().rank()).isEqualTo(1);

        registry.leave(w1);
        registry.leave(replacement.node().nodeId());
        assertThat(registry.require(replacement.node().nodeId()).state()).as("every worker is done")
                .isEqualTo(NodeState.FINISHED);
    }

    @Test
    void aNodeLeavingAfterAFailureIsDeadAtOnceAndItsRankCanBeTaken(CapturedOutput output) {
        NodeRegistry registry = registry(1, 2);
        registry.register(Requests.worker());
        String w1 = registry.register(Requests.worker()).node().nodeId();
        long epochBefore = registry.epoch();

        registry.fail(w1);
        assertThat(registry.require(w1).state()).as("no heartbeat timeout to wait for").isEqualTo(NodeState.DEAD);
        assertThat(registry.epoch()).isEqualTo(epochBefore + 1);
        registry.fail(w1);
        assertThat(registry.epoch()).as("failing twice changes nothing").isEqualTo(epochBefore + 1);
        assertThat(output).contains("Node " + w1 + " (worker rank 1) left after failing, marked DEAD");

        Registration takeover = registry.register(Requests.worker());
        assertThat(takeover.kind()).isEqualTo(Registration.Kind.TAKEOVER);
        assertThat(takeover.node().rank()).isEqualTo(1);

        registry.leave(takeover.node().nodeId());
        registry.fail(takeover.node().nodeId());
        assertThat(registry.require(takeover.node().nodeId()).state()).as("a finished node stays finished")
                .isEqualTo(NodeState.FINISHED);
    }

    @Test
    void newNodeTakesOverTheRankOfADeadNode(CapturedOutput output) {
        NodeRegistry registry = registry(1, 2);
        registry.register(Requests.worker());
        String w1 = registry.register(Requests.worker()).node().nodeId();
        clock.advance(Duration.ofSeconds(10));
        registry.heartbeat(registry.view().workers().get(0).nodeId());
        registry.expireSilent(clock.nanos(), Duration.ofSeconds(5));
        assertThat(registry.require(w1).state()).isEqualTo(NodeState.DEAD);
        long epochBefore = registry.epoch();

        Registration takeover = registry.register(Requests.worker());

        assertThat(takeover.kind()).isEqualTo(Registration.Kind.TAKEOVER);
        assertThat(takeover.replacedNodeId()).isEqualTo(w1);
        assertThat(takeover.node().rank()).isEqualTo(1);
        assertThat(takeover.node().nodeId()).startsWith("worker-1-").isNotEqualTo(w1);
        assertThat(takeover.view().epoch()).isEqualTo(epochBefore + 1);
        assertThat(registry.find(w1)).isEmpty();
        assertThat(registry.view().workers()).extracting(NodeInfo::rank).containsExactly(0, 1);
        assertThat(output).contains("took over worker rank 1 from dead node " + w1);
        assertThat(output).contains("The worker node id:" + takeover.node().nodeId() + ", assign rank id:1");
    }

    @Test
    void badRequestsAreRejectedWithInvalidArgument() {
        NodeRegistry registry = registry(1, 1);
        assertInvalid(registry, new RegisterRequest(NodeRole.SCHEDULER, "h", 0, 0, null), "role must be server or worker");
        assertInvalid(registry, new RegisterRequest(null, "h", 0, 0, null), "role is required");
        assertInvalid(registry, new RegisterRequest(NodeRole.WORKER, " ", 0, 0, null), "host must not be blank");
        assertInvalid(registry, new RegisterRequest(NodeRole.SERVER, "h", 0, 0, null), "rsocketPort must be between 1");
        assertInvalid(registry, new RegisterRequest(NodeRole.WORKER, "h", 0, 70000, null), "httpPort");
        assertThat(registry.epoch()).isZero();
        assertThat(registry.view().nodes()).isEmpty();
    }

    @Test
    void heartbeatOfUnknownNodeIsUnknownKey() {
        assertThatThrownBy(() -> registry(1, 1).heartbeat("server-9-ffff"))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.UNKNOWN_KEY))
                .hasMessageContaining("server-9-ffff");
    }

    @Test
    void announcesStartOnceWhenEveryoneRegistered(CapturedOutput output) {
        NodeRegistry registry = registry(1, 1);
        Registration s = registry.register(Requests.server(9000));
        assertThat(output).contains("The server node id:" + s.node().nodeId() + ", assign rank id:0");
        assertThat(output).doesNotContain("Start the scheduler node is successful!");
        Registration w = registry.register(Requests.worker());
        registry.register(Requests.again(Requests.worker(), w.node().nodeId()), w.nodeToken());
        assertThat(output.getOut().split("Start the scheduler node is successful!", -1)).hasSize(2);
    }

    @Test
    void everyRegistrationGetsItsOwnTokenAndOnlyThatTokenSpeaksForTheNode() {
        NodeRegistry registry = registry(1, 1);
        Registration s = registry.register(Requests.server(9000));
        Registration w = registry.register(Requests.worker());
        assertThat(s.nodeToken()).hasSize(43).isNotEqualTo(w.nodeToken());
        assertThat(s.toString()).doesNotContain(s.nodeToken());

        assertThat(registry.authenticate(w.node().nodeId(), w.nodeToken()).rank()).isZero();
        assertUnauthenticated(() -> registry.authenticate(w.node().nodeId(), s.nodeToken()), "wrong node token");
        assertUnauthenticated(() -> registry.authenticate(w.node().nodeId(), null), "no node token");
        assertUnauthenticated(() -> registry.heartbeat(w.node().nodeId(), "x"), "wrong node token");
        assertUnauthenticated(() -> registry.register(Requests.again(Requests.worker(), w.node().nodeId()), null),
                "is ALIVE");
        assertThat(registry.view().workers()).singleElement().satisfies(n -> assertThat(n.host()).isEqualTo(
                w.node().host()));

        Registration again = registry.register(Requests.again(Requests.worker(), w.node().nodeId()), w.nodeToken());
        assertThat(again.nodeToken()).isNotEqualTo(w.nodeToken());
        assertUnauthenticated(() -> registry.authenticate(w.node().nodeId(), w.nodeToken()), "wrong node token");
        assertThat(registry.heartbeat(w.node().nodeId(), again.nodeToken()).workers()).hasSize(1);
    }

    @Test
    void aDeadNodesIdIsOpenAgainAndATakeoverRetiresTheDeadNodesToken() {
        NodeRegistry registry = registry(1, 1);
        registry.register(Requests.server(9000));
        Registration w = registry.register(Requests.worker());
        registry.fail(w.node().nodeId());
        Registration back = registry.register(Requests.again(Requests.worker(), w.node().nodeId()), null);
        assertThat(back.kind()).isEqualTo(Registration.Kind.REREGISTERED);

        registry.fail(w.node().nodeId());
        Registration taker = registry.register(Requests.worker());
        assertThat(taker.kind()).isEqualTo(Registration.Kind.TAKEOVER);
        assertThat(registry.save().tokens()).containsOnlyKeys(registry.view().servers().get(0).nodeId(),
                taker.node().nodeId());
    }

    private static void assertUnauthenticated(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PsException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED)).hasMessageContaining(message);
    }

    private static void assertInvalid(NodeRegistry registry, RegisterRequest request, String message) {
        assertThatThrownBy(() -> registry.register(request))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(message);
    }
}

package io.jvmps.scheduler.data;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.common.protocol.PartitionRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.scheduler.registry.NodeIdGenerator;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.scheduler.support.MutableClock;
import io.jvmps.scheduler.support.Requests;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataPartitionsTest {
    private final MutableClock clock = new MutableClock(Instant.EPOCH);
    private final NodeRegistry registry = new NodeRegistry(new ClusterProperties(1, 2, 3), clock, clock,
            new NodeIdGenerator(new Random(5)));
    private final DataPartitions data = new DataPartitions(registry);

    @Test
    void everyPartitionOfEveryEpochIsHandedOutOnceAndALateWorkerSharesTheRest() {
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        Set<String> trained = new HashSet<>();
        PartitionLease a = data.next(first(w0));
        PartitionLease b = data.next(first(w1));
        assertThat(a.epoch() + ":" + a.partition()).isEqualTo("0:0");
        assertThat(b.epoch() + ":" + b.partition()).isEqualTo("0:1");
        String w2 = registry.register(Requests.worker()).node().nodeId(); // scale-out
        PartitionLease c = data.next(first(w2));
        assertThat(c.partition()).isEqualTo(2);
        String[] who = {w0, w1, w2};
        PartitionLease[] held = {a, b, c};
        int turn = 0;
        while (true) {
            int w = turn++ % 3;
            if (!held[w].granted()) {
                if (!held[0].granted() && !held[1].granted() && !held[2].granted()) {
                    break;
                }
                continue;
            }
            assertThat(trained.add(held[w].epoch() + ":" + held[w].partition())).as("handed out once").isTrue();
            held[w] = data.next(new PartitionRequest(who[w], 2, 4, held[w].epoch(), held[w].partition()));
        }
        assertThat(trained).hasSize(8);
        assertThat(data.progress()).containsExactly(8, 8);
    }

    @Test
    void aDeadWorkersPartitionGoesToTheNextWorkerThatAsks() {
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        PartitionLease lost = data.next(first(w0));
        PartitionLease other = data.next(first(w1));
        registry.expireSilent(java.time.Duration.ofSeconds(10).toNanos(), java.time.Duration.ofSeconds(5));
        registry.heartbeat(w1); // w0 stays DEAD
        PartitionLease next = data.next(new PartitionRequest(w1, 2, 4, other.epoch(), other.partition()));
        assertThat(next.epoch() + ":" + next.partition()).as("the dead worker's partition comes back first")
                .isEqualTo(lost.epoch() + ":" + lost.partition());
        assertThat(data.next(new PartitionRequest(w0, 2, 4, -1, -1)).granted()).as("a DEAD worker gets none")
                .isFalse();
    }

    @Test
    void aDifferentPlanAForeignPartitionOrAServerIsRefusedByName() {
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String server = registry.register(Requests.server(9000)).node().nodeId();
        data.next(first(w0));
        assertCode(() -> data.next(new PartitionRequest(w0, 3, 4, -1, -1)), ErrorCode.INVALID_ARGUMENT,
                "2 epochs x 4 partitions");
        assertCode(() -> data.next(new PartitionRequest(w0, 2, 4, 2, 0)), ErrorCode.INVALID_ARGUMENT,
                "outside the plan");
        assertCode(() -> data.next(new PartitionRequest(server, 2, 4, -1, -1)), ErrorCode.INVALID_ARGUMENT,
                "only workers");
        assertCode(() -> data.next(new PartitionRequest("worker-9-0000", 2, 4, -1, -1)), ErrorCode.UNKNOWN_KEY,
                "worker-9-0000");
        assertCode(() -> data.next(new PartitionRequest(w0, 0, 4, -1, -1)), ErrorCode.INVALID_ARGUMENT, "epochs");
        assertThat(data.progress()).containsExactly(0, 8);
    }

    @Test
    void aRequestSentAgainBecauseItsAnswerWasLostGetsTheSameLeaseAndFinishesNothingTwice() {
        String w0 = registry.register(Requests.worker()).node().nodeId();
        PartitionLease a = data.next(first(w0));
        assertThat(data.next(first(w0))).as("the first request again").isEqualTo(a);
        PartitionLease b = data.next(new PartitionRequest(w0, 2, 4, a.epoch(), a.partition()));
        assertThat(b.partition()).isEqualTo(1);
        assertThat(data.next(new PartitionRequest(w0, 2, 4, a.epoch(), a.partition())))
                .as("finishing a again while holding b: the answer to a retry, b").isEqualTo(b);
        assertThat(data.progress()).as("a counted once").containsExactly(1, 8);
        PartitionLease c = data.next(new PartitionRequest(w0, 2, 4, b.epoch(), b.partition()));
        assertThat(c.partition()).isEqualTo(2);
        assertThat(data.progress()).containsExactly(2, 8);
    }

    private static PartitionRequest first(String nodeId) {
        return new PartitionRequest(nodeId, 2, 4, -1, -1);
    }

    private static void assertCode(Runnable call, ErrorCode code, String detail) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(PsException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(detail);
        });
    }
}

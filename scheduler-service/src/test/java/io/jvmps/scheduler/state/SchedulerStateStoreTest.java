package io.jvmps.scheduler.state;

import io.jvmps.common.cluster.ClusterProperties;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.JobFailure;
import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.common.protocol.PartitionRequest;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.scheduler.config.SchedulerProperties;
import io.jvmps.scheduler.data.DataPartitions;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeIdGenerator;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.scheduler.support.MutableClock;
import io.jvmps.scheduler.support.Requests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The job's state written by one scheduler and read back by the next, as after a crash and restart. */
class SchedulerStateStoreTest {
    @TempDir
    Path dir;

    /** One scheduler's components over a state directory. */
    private final class Scheduler {
        final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        final NodeRegistry registry = new NodeRegistry(new ClusterProperties(1, 2), clock, clock,
                new NodeIdGenerator(new Random(11)));
        final DataPartitions data = new DataPartitions(registry);
        final JobTracker job = new JobTracker(registry, clock);
        final SchedulerStateStore store;

        Scheduler(String stateDir) {
            store = new SchedulerStateStore(new SchedulerProperties("127.0.0.1", 8080, Duration.ofSeconds(30),
                    Duration.ofSeconds(1), 1L, stateDir), registry, data, job);
            store.load();
        }
    }

    @Test
    void ranksLeasesFinishedPartitionsAndResultsSurviveARestart() throws Exception {
        Scheduler first = new Scheduler(dir.toString());
        String server = first.registry.register(Requests.server(9000)).node().nodeId();
        String w0 = first.registry.register(Requests.worker()).node().nodeId();
        var w1Registration = first.registry.register(Requests.worker());
        String w1 = w1Registration.node().nodeId();
        PartitionLease a = first.data.next(new PartitionRequest(w0, 1, 4, -1, -1));
        PartitionLease b = first.data.next(new PartitionRequest(w1, 1, 4, -1, -1));
        PartitionLease c = first.data.next(new PartitionRequest(w0, 1, 4, a.epoch(), a.partition()));
        first.job.report(new ProgressReport(w1, 1, 3, 3, 0.5, 100, 10, 20));
        // a click model's result: its score histogram is what the job's AUC is merged from
        first.job.result(ResultReport.clicks(w0, io.jvmps.common.metrics.ClickHistogram.of(
                new double[] {0.9, 0.7, 0.2, 0.6}, new double[] {1, 0, 0, 1}), 12.5));
        double auc = first.job.status().auc();
        first.store.save();
        long epoch = first.registry.epoch();

        Scheduler second = new Scheduler(dir.toString());
        assertThat(second.registry.view().nodes()).extracting(n -> n.nodeId() + "/" + n.role() + "/" + n.rank())
                .containsExactly(server + "/SERVER/0", w0 + "/WORKER/0", w1 + "/WORKER/1");
        assertThat(second.registry.epoch()).as("views after the restart are newer").isEqualTo(epoch + 1);
        assertThat(second.registry.registrations(NodeRole.WORKER)).isEqualTo(2);
        assertThat(second.registry.expireSilent(second.clock.nanos(), Duration.ofSeconds(30)))
                .as("every node gets a full heartbeat timeout from the restart").isEmpty();
        assertThat(second.data.progress()).containsExactly(1, 4);
        PartitionLease held = second.data.next(new PartitionRequest(w1, 1, 4, -1, -1));
        assertThat(held.epoch() + ":" + held.partition()).as("w1 still holds b").isEqualTo(b.epoch() + ":" + b.partition());
        assertThat(second.data.next(new PartitionRequest(w0, 1, 4, c.epoch(), c.partition())).partition())
                .as("a, b and c are not leased again").isEqualTo(3);
        assertThat(second.job.status().workersReported()).isEqualTo(1);
        assertThat(second.job.status().task()).isEqualTo("BINARY");
        assertThat(second.job.status().auc()).as("the histogram survives the restart").isEqualTo(auc).isEqualTo(0.75);
        assertThat(second.job.status().latest()).extracting(ProgressReport::step).containsExactly(3);
        assertThat(second.registry.authenticate(w1, w1Registration.nodeToken()).rank())
                .as("a node's token still speaks for it after the restart").isEqualTo(1);
        assertThatThrownBy(() -> second.registry.authenticate(w0, w1Registration.nodeToken()))
                .hasMessageContaining("wrong node token");
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(dir.resolve(SchedulerStateStore.FILE))))
                    .as("the file holds node tokens").isEqualTo("rw-------");
        }
        RegisterRequest again = Requests.again(Requests.worker(), w1);
        assertThat(second.registry.register(again, w1Registration.nodeToken()).node().rank())
                .as("a node that re-registers keeps its rank").isEqualTo(1);
    }

    @Test
    void aFailedJobStaysFailedAndAnUnreadableFileStopsStartUpNamingTheDirectory() throws Exception {
        Scheduler first = new Scheduler(dir.toString());
        first.registry.register(Requests.server(9000));
        String w0 = first.registry.register(Requests.worker()).node().nodeId();
        first.job.fail(new JobFailure(w0, "server 0 lost its parameters"));
        first.store.save();
        assertThat(new Scheduler(dir.toString()).job.failure()).startsWith("server 0 lost its parameters");

        Files.writeString(dir.resolve(SchedulerStateStore.FILE), "{\"format\":1,\"registry\":");
        assertThatThrownBy(() -> new Scheduler(dir.toString())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ps.scheduler.state-dir " + dir).hasMessageContaining("move it away");
    }

    @Test
    void aFinishedJobIsNotResumedANewOneStarts() throws Exception {
        Scheduler first = new Scheduler(dir.toString());
        first.registry.register(Requests.server(9000));
        String w0 = first.registry.register(Requests.worker()).node().nodeId();
        String w1 = first.registry.register(Requests.worker()).node().nodeId();
        first.job.result(new ResultReport(w0, 90, 100, 1));
        first.job.result(new ResultReport(w1, 80, 100, 1));
        first.store.save();

        Scheduler next = new Scheduler(dir.toString());
        assertThat(next.registry.view().nodes()).as("a new job").isEmpty();
        assertThat(next.job.status().state()).isEqualTo("WAITING");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .singleElement().asString().startsWith("scheduler-state-finished-");
        }
    }

    @Test
    void withoutADirectoryNothingIsWritten() throws Exception {
        Scheduler memory = new Scheduler("");
        memory.registry.register(Requests.server(9000));
        memory.store.save();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}

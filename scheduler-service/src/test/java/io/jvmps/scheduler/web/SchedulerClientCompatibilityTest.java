package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ResultReport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The common {@link SchedulerClient}, which servers and workers use, against the running scheduler. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1"})
@DirtiesContext
class SchedulerClientCompatibilityTest {

    @LocalServerPort
    private int port;

    @Test
    void clientRegistersHeartbeatsReportsAndReadsTheJob() {
        SchedulerClient client = new SchedulerClient("127.0.0.1", port, Duration.ofSeconds(5),
                io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789"));

        JobStatus waiting = client.job();
        assertThat(waiting.state()).isEqualTo("WAITING");
        assertThat(waiting.accuracy()).as("NaN survives the JSON round trip").isNaN();

        RegisterResponse server = client.register(new RegisterRequest(NodeRole.SERVER, "127.0.0.1", 7001, 8001, null));
        RegisterResponse worker = client.register(new RegisterRequest(NodeRole.WORKER, "127.0.0.1", 0, 8002, null));
        assertThat(server.rank()).isZero();
        assertThat(worker.rank()).isZero();
        assertThat(worker.view().complete()).isTrue();

        ClusterView afterHeartbeat = client.heartbeat(server.nodeId());
        assertThat(afterHeartbeat.servers()).extracting(NodeInfo::rsocketEndpoint).containsExactly("127.0.0.1:7001");
        ClusterView view = client.cluster();
        assertThat(view.epoch()).isEqualTo(2);
        assertThat(view.nodes()).extracting(NodeInfo::state).containsOnly(NodeState.ALIVE);

        RegisterResponse again = client.register(
                new RegisterRequest(NodeRole.SERVER, "127.0.0.1", 7002, 8001, server.nodeId()));
        assertThat(again.nodeId()).isEqualTo(server.nodeId());
        assertThat(again.rank()).isZero();
        assertThat(again.view().epoch()).isEqualTo(3);

        client.reportProgress(new ProgressReport(worker.nodeId(), 1, 5, 4, 1.5, 200, 4096, 8192));
        client.reportResult(new ResultReport(worker.nodeId(), 990, 1000, 12.0));
        JobStatus job = client.job();
        assertThat(job.state()).isEqualTo("FINISHED");
        assertThat(job.accuracy()).isEqualTo(0.99);
        assertThat(job.latest()).singleElement().extracting(ProgressReport::globalStep).isEqualTo(4L);

        client.leave(worker.nodeId());
        assertThat(client.cluster().workers().get(0).state()).isEqualTo(NodeState.FINISHED);
    }

    @Test
    void clientSurfacesTheSchedulersErrorCodes() {
        SchedulerClient client = new SchedulerClient("127.0.0.1", port, Duration.ofSeconds(5),
                io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789"));
        assertThatThrownBy(() -> client.heartbeat("worker-3-beef"))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.UNKNOWN_KEY));
        assertThatThrownBy(() -> client.register(new RegisterRequest(NodeRole.SCHEDULER, "h", 0, 0, null)))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
}

package io.jvmps.cluster;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two ASYNC workers (this test's own {@link PsJob}s, so it decides when each one pushes) lose a server. Worker A
 * recovers first (the servers roll back to checkpoint 40) and trains on alone past two newer checkpoints; only
 * then does worker B notice the loss and recover. B must keep the rollback A already did for this server set:
 * rolling back again, to the newer checkpoint, would undo A's pushes after it, and in ASYNC nothing would tell
 * A. Every push must be on both servers once at the end.
 */
class LateRecoveryIT {
    private static final int PARAMS = 4;

    @Test
    void aWorkerThatRecoversLateKeepsTheRollbackAnotherWorkerDidAndEveryPushStays() throws Exception {
        try (LocalCluster cluster = new LocalCluster("late-recovery")) {
            String[] serverArgs = LocalCluster.fastFailureServerArgs("ASYNC",
                    "--ps.checkpoint.dir=" + cluster.freshDir("checkpoints"), "--ps.checkpoint.every-steps=10",
                    "--ps.server.register-retry=500ms");
            cluster.startScheduler(2, 2, "--ps.scheduler.heartbeat-timeout=5s",
                    "--ps.scheduler.failure-check-interval=200ms");
            List<NodeProcess> servers = List.of(cluster.startServer(0, 2, 2, serverArgs),
                    cluster.startServer(1, 2, 2, serverArgs));
            ClientSettings settings = ClientSettings.of("127.0.0.1", cluster.schedulerPort(), cluster.secret())
                    .withRequestTimeout(Duration.ofSeconds(30)).withRecoveryTimeout(Duration.ofMinutes(2));
            CompletableFuture<PsJob> first = CompletableFuture.supplyAsync(() -> PsJob.join(settings));
            CompletableFuture<PsJob> second = CompletableFuture.supplyAsync(() -> PsJob.join(settings));
            try (PsJob one = first.get(); PsJob two = second.get()) {
                PsJob a = one.rank() == 0 ? one : two;
                PsJob b = a == one ? two : one;
                List<ParamSpec> params = new ArrayList<>();
                INDArray[] initial = new INDArray[PARAMS];
                for (int p = 0; p < PARAMS; p++) {
                    params.add(new ParamSpec("w" + p, new long[] {16}));
                    initial[p] = Nd4j.zeros(DataType.FLOAT, 16);
                }
                CompletableFuture<PsJob.DenseStart> startA = CompletableFuture.supplyAsync(
                        () -> a.declareDense(params, initial));
                PsJob.DenseStart denseB = b.declareDense(params, initial);
                PsJob.DenseStart denseA = startA.get();
                for (int step = 0; step < 20; step++) {
                    denseA.client().push(step, gradients(step));
                    denseB.client().push(step, gradients(step));
                }
                for (NodeProcess server : servers) {
                    server.awaitLog(Pattern.compile("Checkpoint step 40: wrote part"), Duration.ofMinutes(1));
                }

                servers.get(1).process().destroyForcibly().waitFor();
                NodeProcess replacement = cluster.startServerNamed("server-1-replacement", 2, 2, serverArgs);

                PsException lostA = assertThrows(() -> denseA.client().push(20, gradients(20)));
                ServerRecovery.Resumed resumedA = a.resume(denseA, lostA);
                assertThat(resumedA.checkpointStep()).as("A rolls the servers back to the newest checkpoint").isEqualTo(40);
                assertThat(resumedA.step()).as("A's own clock in that checkpoint").isEqualTo(20);
                for (long step = resumedA.step(); step < 45; step++) {
                    resumedA.client().push(step, gradients(step));
                }
                for (NodeProcess server : List.of(servers.get(0), replacement)) {
                    server.awaitLog(Pattern.compile("Checkpoint step 60: wrote part"), Duration.ofMinutes(1));
                }

                PsException lostB = assertThrows(() -> denseB.client().push(20, gradients(20)));
                ServerRecovery.Resumed resumedB = b.resume(denseB, lostB);
                assertThat(resumedB.checkpointStep()).as("B keeps the rollback A did for this server set, not the "
                        + "newer checkpoint 60 (which would undo A's pushes 61 to 65)").isEqualTo(40);
                assertThat(resumedB.step()).as("B's own clock on the servers").isEqualTo(20);
                for (long step = resumedB.step(); step < 30; step++) {
                    resumedB.client().push(step, gradients(step));
                }

                long expected = 45 + 30;
                for (NodeProcess server : List.of(servers.get(0), replacement)) {
                    assertThat(LocalCluster.sliceVersions(server)).as(server.name() + ": every push of A (45) and B (30) "
                            + "applied once").isEqualTo(expected + "-" + expected);
                }
            }
        }
    }

    private static INDArray[] gradients(long step) {
        INDArray[] g = new INDArray[PARAMS];
        for (int p = 0; p < PARAMS; p++) {
            g[p] = Nd4j.valueArrayOf(new long[] {16}, 0.01f * (step % 7 + 1), DataType.FLOAT);
        }
        return g;
    }

    private static PsException assertThrows(Runnable push) {
        PsException[] thrown = new PsException[1];
        assertThatThrownBy(push::run).as("a push to the killed server fails").isInstanceOfSatisfying(PsException.class,
                e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.NOT_READY);
                    thrown[0] = e;
                });
        return thrown[0];
    }
}

package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A dense model smaller than the server set, a single bias on 2 servers ({@link BiasOnlyProgram}): server 1 holds
 * no slice of it, and still takes part. The program joins, trains and ends where plain SGD ends; with checkpoints
 * every server's part is written (server 0 writes server 1's empty one), so when server 0, the bias's holder, is
 * killed and replaced, the program rolls both servers back to a complete checkpoint and ends on the same value as
 * an unbroken run.
 */
class TinyModelIT {
    private static final int STEPS = 150;
    private static final double LR = 0.01;
    private static final Pattern RESULT = Pattern.compile("RESULT bias=(\\S+) steps=(\\d+)");

    @Test
    void aOneElementModelOnTwoServersTrainsAndSurvivesTheLossOfItsServer() throws Exception {
        try (LocalCluster cluster = new LocalCluster("tiny-model")) {
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(2, 1, "--ps.scheduler.heartbeat-timeout=5s",
                    "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = {"--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=" + LR,
                    "--ps.consistency.mode=SYNC", "--ps.node.heartbeat-interval=300ms",
                    "--ps.server.register-retry=500ms", "--ps.checkpoint.dir=" + checkpoints,
                    "--ps.checkpoint.every-steps=10"};
            Path signal = checkpoints.getParent().resolve("go-on");
            NodeProcess[] servers = {cluster.startServer(0, 2, 1, serverArgs), cluster.startServer(1, 2, 1, serverArgs)};
            NodeProcess program = cluster.startProgram("program", System.getProperty("java.class.path"),
                    BiasOnlyProgram.class.getName(), "127.0.0.1:" + cluster.schedulerPort(), Integer.toString(STEPS),
                    "40", signal.toString());
            program.awaitLog(Pattern.compile("WAITING at step 40"), Duration.ofMinutes(2));
            // the server that got rank 0 holds the bias, writes its part with the slice and rank 1's empty part
            Pattern holds = Pattern.compile("Checkpoint step 30: wrote part 0 of 2 \\(1 slices");
            NodeProcess holder = NodeProcess.poll("a checkpoint at step 30 by the bias's server", Duration.ofMinutes(2),
                    () -> java.util.Arrays.stream(servers).filter(s -> holds.matcher(s.logText()).find()).findFirst());
            assertThat(holder.logText()).contains("wrote the empty part 1 of 2");
            holder.process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-replacement", 2, 1, serverArgs);
            java.nio.file.Files.createFile(signal); // the program goes on: its next push meets the lost server

            assertThat(program.awaitExit(Duration.ofMinutes(3))).as(program.tail()).isZero();
            Matcher result = RESULT.matcher(program.logText());
            assertThat(result.find()).as(program.tail()).isTrue();
            assertThat(result.group(2)).isEqualTo(Integer.toString(STEPS));
            // SGD on (b - 3)^2 / 2 from 0: b_n = 3 (1 - (1 - lr)^n), whatever was rolled back and trained again
            assertThat(Double.parseDouble(result.group(1))).isCloseTo(3 * (1 - Math.pow(1 - LR, STEPS)),
                    within(1e-4));
            assertThat(program.logText()).contains("Recovery 1 done: the servers are back at checkpoint step");
            assertThat(replacement.logText()).contains("Restored");
        }
    }
}

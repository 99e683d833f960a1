package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own training program on the client library ({@code examples/mnist-library}, built against the
 * jvm-ps-client artifact) as both workers of a 2-server SYNC job: each joins through the scheduler, trains
 * its own network on its shard of MNIST through the servers (the library's reader and sharding; in the
 * failover case the program's own batches); rank 0 writes the model, and plain SameDiff
 * reading that file classifies the test set exactly as the trainer did. The scheduler's job status sums
 * the results the programs reported and shows each one's last step.
 */
class ClientLibraryIT {
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final Pattern RESULT = Pattern.compile("RESULT rank=(\\d) steps=(\\d+) loss=\\S+ accuracy=([0-9.]+)");
    private static final Pattern EXPORTED = Pattern.compile("EXPORTED file=(\\S+) accuracy=([0-9.]+) "
            + "loaded-accuracy=([0-9.]+)");
    private static final Pattern FINISHED = Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)");

    /**
     * The program with the output layer's weights and bias kept on the workers: the trainers average their
     * gradients by the ring AllReduce among the two programs (each announced its endpoint at registration) and
     * update them with the servers' Adam and its cosine schedule, so both end on one model though the servers hold
     * only the first layer. (The other cases train every parameter on the servers.)
     */
    @Test
    void aUsersProgramTrainsItsNetworkThroughTheServersAndItsFilePredictsTheSame() throws Exception {
        String classPath = TestPaths.exampleClassPath("mnist-library");
        try (LocalCluster cluster = new LocalCluster("client-library")) {
            Path out = cluster.freshDir("model");
            Job started = startJob(cluster, "--ps.optimizer.type=ADAM", "--ps.optimizer.learning-rate=0.002",
                    "--ps.consistency.mode=SYNC", "--ps.optimizer.schedule=COSINE", "--ps.optimizer.warmup-steps=20",
                    "--ps.optimizer.min-learning-rate=0.0002");
            NodeProcess scheduler = started.scheduler();
            NodeProcess[] programs = startPrograms(cluster, classPath, out, "--epochs=2", "--on-workers=w2,b2");
            // each worker: 2 epochs of 10000 examples in batches of 50
            awaitOneModel(programs, "400", "keeps [w2, b2] on the workers");
            long held = 0;
            for (NodeProcess server : started.servers()) {
                // the trainer told the servers its fit's length, so the cosine (no total-steps) spans those 400 steps
                assertThat(server.logText()).as(server.tail())
                        .contains("Learning-rate schedule sized for the job's 400 updates");
                int port = Integer.parseInt(server.awaitLog(Pattern.compile("Netty started on port (\\d+)"),
                        Duration.ofSeconds(1)).group(1));
                String status = NodeProcess.poll("the server's status", Duration.ofSeconds(10),
                        () -> LocalCluster.get(port, "/api/v1/status"));
                Matcher elements = Pattern.compile("\"totalElements\":(\\d+)").matcher(status);
                assertThat(elements.find()).as(status).isTrue();
                held += Long.parseLong(elements.group(1));
            }
            assertThat(held).as("the servers hold w1 [784, 128] and b1 [1, 128] only").isEqualTo(784 * 128 + 128);
            Matcher exported = exportOf(programs);
            assertThat(Path.of(exported.group(1))).isEqualTo(out.resolve("model.sd")).isRegularFile();
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("4000");
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow();
            assertThat(status).contains("\"state\":\"FINISHED\"");
            assertThat(Pattern.compile("\"globalStep\":400,").matcher(status).results().count())
                    .as("each program's last progress report: " + status).isEqualTo(2);
        }
    }

    /**
     * The same program with the servers in GEO: each trainer trains its graph locally and exchanges deltas
     * every 10 steps; after the last round both pull the one model every delta went into, so both programs
     * classify the test set alike, and the file predicts it as the trainer did.
     */
    @Test
    void inGeoModeTheTrainersExchangeDeltasAndEndOnOneModel() throws Exception {
        String classPath = TestPaths.exampleClassPath("mnist-library");
        try (LocalCluster cluster = new LocalCluster("client-library-geo")) {
            Path out = cluster.freshDir("model");
            NodeProcess scheduler = startJob(cluster, "--ps.consistency.mode=GEO", "--ps.consistency.geo-interval=10",
                    "--ps.consistency.geo-learning-rate=0.3").scheduler();
            NodeProcess[] programs = startPrograms(cluster, classPath, out, "--epochs=2");
            awaitOneModel(programs, "400", "in GEO mode from step 0");
            exportOf(programs);
            assertThat(scheduler.awaitLog(FINISHED, Duration.ofSeconds(30)).group(3)).isEqualTo("4000");
        }
    }

    /**
     * Server 1 killed (SIGKILL) after its checkpoint at step 100 and started again: both programs' trainers
     * wait for the replacement, roll the servers back to the newest checkpoint and go on from its step with
     * that step's batch; both finish the 800 steps on one model, which the file predicts as they do.
     */
    @Test
    void aKilledServerIsReplacedAndTheTrainersResumeFromTheCheckpoint() throws Exception {
        String classPath = TestPaths.exampleClassPath("mnist-library");
        try (LocalCluster cluster = new LocalCluster("client-library-failover")) {
            Path out = cluster.freshDir("model");
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(SERVERS, WORKERS, "--ps.scheduler.heartbeat-timeout=5s",
                    "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = {"--ps.optimizer.type=ADAM", "--ps.optimizer.learning-rate=0.002",
                    "--ps.optimizer.schedule=COSINE", "--ps.optimizer.min-learning-rate=0.0005",
                    "--ps.consistency.mode=SYNC", "--ps.node.heartbeat-interval=300ms",
                    "--ps.server.register-retry=500ms", "--ps.checkpoint.dir=" + checkpoints,
                    "--ps.checkpoint.every-steps=50"};
            NodeProcess[] servers = new NodeProcess[SERVERS];
            for (int s = 0; s < SERVERS; s++) {
                servers[s] = cluster.startServer(s, SERVERS, WORKERS, serverArgs);
            }
            NodeProcess[] programs = startPrograms(cluster, classPath, out, "--epochs=4", "--batches=own");
            servers[1].awaitLog(Pattern.compile("Checkpoint step 100: wrote part"), Duration.ofMinutes(3));
            servers[1].process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-1-replacement", SERVERS, WORKERS, serverArgs);
            awaitOneModel(programs, "800"); // the schedule ends at step 800 however it was interrupted
            Pattern resumed = Pattern.compile("Recovery 1 done: the servers are back at checkpoint step (\\d+);");
            for (NodeProcess program : programs) {
                Matcher back = resumed.matcher(program.logText());
                assertThat(back.find()).as(program.tail()).isTrue();
                assertThat(Long.parseLong(back.group(1))).as("a checkpoint at or after the kill").isBetween(100L, 750L);
            }
            assertThat(replacement.logText()).contains("Restored")
                    .as("the recovery told the replacement the job's length").contains(
                            "Learning-rate schedule sized for the job's 800 updates");
            exportOf(programs);
        }
    }

    /** The scheduler and servers of a job. */
    private record Job(NodeProcess scheduler, NodeProcess[] servers) {
    }

    /** Starts the scheduler and both servers with these server options. */
    private static Job startJob(LocalCluster cluster, String... serverArgs) throws java.io.IOException {
        NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
        NodeProcess[] servers = new NodeProcess[SERVERS];
        for (int s = 0; s < SERVERS; s++) {
            servers[s] = cluster.startServer(s, SERVERS, WORKERS, serverArgs);
        }
        return new Job(scheduler, servers);
    }

    /** Starts the example program as each worker, on 20000 training and 2000 test examples. */
    private static NodeProcess[] startPrograms(LocalCluster cluster, String classPath, Path out, String... extra)
            throws java.io.IOException {
        NodeProcess[] programs = new NodeProcess[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(
                    "--scheduler=127.0.0.1:" + cluster.schedulerPort(), "--mnist=" + TestPaths.mnist(),
                    "--out=" + out, "--train-examples=20000", "--test-examples=2000"));
            args.addAll(java.util.List.of(extra));
            programs[w] = cluster.startProgram("program-" + w, classPath, "com.example.library.LibraryTraining",
                    args.toArray(String[]::new));
        }
        return programs;
    }

    /**
     * Every program exits 0 having logged {@code logged}, run {@code steps} steps and reached 90 %, with the
     * same test accuracy as the others: they end on one model.
     */
    private static void awaitOneModel(NodeProcess[] programs, String steps, String... logged) {
        String accuracy = null;
        for (NodeProcess program : programs) {
            assertThat(program.awaitExit(Duration.ofMinutes(5))).as(program.name() + "\n" + program.tail()).isZero();
            for (String line : logged) {
                assertThat(program.logText()).contains(line);
            }
            Matcher result = RESULT.matcher(program.logText());
            assertThat(result.find()).as(program.tail()).isTrue();
            assertThat(result.group(2)).as("steps").isEqualTo(steps);
            assertThat(Double.parseDouble(result.group(3))).as(program.tail()).isGreaterThanOrEqualTo(0.9);
            if (accuracy != null) {
                assertThat(result.group(3)).as("the workers end on one model").isEqualTo(accuracy);
            }
            accuracy = result.group(3);
        }
    }

    /** @return rank 0's export line, whose file plain SameDiff reads to the trainer's accuracy */
    private static Matcher exportOf(NodeProcess[] programs) {
        NodeProcess rank0 = java.util.Arrays.stream(programs).filter(p -> p.logText().contains("EXPORTED"))
                .findFirst().orElseThrow();
        Matcher exported = EXPORTED.matcher(rank0.logText());
        assertThat(exported.find()).isTrue();
        assertThat(exported.group(3)).as("plain SameDiff on the file").isEqualTo(exported.group(2));
        return exported;
    }
}

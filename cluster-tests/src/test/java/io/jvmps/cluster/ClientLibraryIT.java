package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own training program on the client library ({@code examples/mnist-library}, built against the
 * jvm-ps-client artifact) as both workers of a 2-server SYNC job: each joins through the scheduler, trains
 * its own network on its shard of MNIST through the servers; rank 0 writes the model, and plain SameDiff
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

    @Test
    void aUsersProgramTrainsItsNetworkThroughTheServersAndItsFilePredictsTheSame() throws Exception {
        Path example = TestPaths.repo().resolve("examples/mnist-library/target");
        assertThat(example.resolve("classpath.txt")).as("build it: ./mvnw -q -f examples/mnist-library/pom.xml "
                + "package -DskipTests").isRegularFile();
        String classPath = example.resolve("classes") + java.io.File.pathSeparator
                + Files.readString(example.resolve("classpath.txt")).trim();
        try (LocalCluster cluster = new LocalCluster("client-library")) {
            Path out = cluster.freshDir("model");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=ADAM",
                        "--ps.optimizer.learning-rate=0.002", "--ps.consistency.mode=SYNC");
            }
            NodeProcess[] programs = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                programs[w] = cluster.startProgram("program-" + w, classPath, "com.example.library.LibraryTraining",
                        "--scheduler=127.0.0.1:" + cluster.schedulerPort(), "--mnist=" + TestPaths.mnist(),
                        "--out=" + out, "--epochs=2", "--train-examples=20000", "--test-examples=2000");
            }
            long steps = -1;
            for (NodeProcess program : programs) {
                assertThat(program.awaitExit(Duration.ofMinutes(5))).as(program.name() + "\n" + program.tail()).isZero();
                Matcher result = RESULT.matcher(program.logText());
                assertThat(result.find()).as(program.tail()).isTrue();
                long mine = Long.parseLong(result.group(2));
                assertThat(mine).as("each worker: 2 epochs of 10000 examples in batches of 50").isEqualTo(400);
                steps = mine;
                assertThat(Double.parseDouble(result.group(3))).as(program.tail()).isGreaterThanOrEqualTo(0.9);
            }
            assertThat(steps).isEqualTo(400);
            NodeProcess rank0 = java.util.Arrays.stream(programs).filter(p -> p.logText().contains("EXPORTED"))
                    .findFirst().orElseThrow();
            Matcher exported = EXPORTED.matcher(rank0.logText());
            assertThat(exported.find()).isTrue();
            assertThat(Path.of(exported.group(1))).isEqualTo(out.resolve("model.sd")).isRegularFile();
            assertThat(exported.group(3)).as("plain SameDiff on the file").isEqualTo(exported.group(2));
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("4000");
            String status = cluster.schedulerGet("/api/v1/job").orElseThrow();
            assertThat(status).contains("\"state\":\"FINISHED\"");
            assertThat(Pattern.compile("\"globalStep\":400,").matcher(status).results().count())
                    .as("each program's last progress report: " + status).isEqualTo(2);
        }
    }
}

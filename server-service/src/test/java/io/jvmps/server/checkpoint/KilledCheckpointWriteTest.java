package io.jvmps.server.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real process writing checkpoints is killed with SIGKILL while a part is half on disk: the newest
 * checkpoint read back afterwards is a complete, verified one, with the values of its own step.
 */
class KilledCheckpointWriteTest {
    @TempDir
    Path dir;

    @Test
    void aWriteKilledMidwayLeavesThePreviousCheckpointUsable() throws Exception {
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-cp", System.getProperty("java.class.path"), CheckpointWriterProcess.class.getName(),
                dir.toString()).redirectErrorStream(true).redirectOutput(dir.resolveSibling(dir.getFileName()
                + ".log").toFile()).start();
        try {
            pollForHalfWrittenPartAfterStep(20, Duration.ofMinutes(2));
            writer.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL, mid-write
        } finally {
            writer.destroyForcibly();
        }

        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        Checkpoint newest = files.latestComplete().orElseThrow();
        assertThat(newest.step()).isGreaterThanOrEqualTo(20);
        CheckpointImage image = newest.image();
        assertThat(image.values()[0][0]).isEqualTo(newest.step());
        assertThat(image.values()[0][CheckpointWriterProcess.ELEMENTS - 1]).isEqualTo(newest.step() + 1);
        assertThat(files.stepsNewestFirst().get(0)).as("the unfinished step is newer").isGreaterThan(newest.step());
    }

    private Path pollForHalfWrittenPartAfterStep(long step, Duration timeout) throws IOException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            try (Stream<Path> all = Files.walk(dir)) {
                List<Path> tmp = all.filter(p -> p.getFileName().toString().endsWith(".bin.tmp")).toList();
                for (Path p : tmp) {
                    String stepDir = p.getParent().getFileName().toString();
                    long at = Long.parseLong(stepDir.substring("step-".length()));
                    if (at > step && Files.exists(p) && Files.size(p) > 1_000_000) {
                        return p;
                    }
                }
            } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
                // a file was renamed while listing: look again
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        throw new AssertionError("no half-written part after step " + step + " within " + timeout);
    }
}

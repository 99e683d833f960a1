package io.jvmps.server.checkpoint;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PolicyContext;
import io.jvmps.server.consistency.SyncPolicy;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints on a real file system that fills up: a 192 KiB tmpfs this test mounts (needs root; skipped
 * otherwise, naming why) and unmounts. A write that does not fit removes its partial files, counts a failure
 * and logs a WARN; training goes on, the newest complete checkpoint stays restorable, and once there is room
 * again the next checkpoint is written and the old one pruned.
 */
@EnabledOnOs(OS.LINUX)
@ExtendWith(OutputCaptureExtension.class)
class CheckpointFullDiskTest {
    private static final List<ParamSpec> MODEL = List.of(new ParamSpec("W", new long[] {40, 50}),
            new ParamSpec("b", new long[] {50}));

    @TempDir
    Path tmp;
    private Path disk;

    @BeforeEach
    void mountASmallDisk() throws Exception {
        disk = Files.createDirectory(tmp.resolve("small-disk"));
        String output = run("mount", "-t", "tmpfs", "-o", "size=192k", "tmpfs", disk.toString());
        Assumptions.assumeTrue(output == null, "cannot mount a tmpfs here (needs root): " + output);
    }

    @AfterEach
    void unmount() throws Exception {
        String output = run("umount", disk.toString());
        assertThat(output).as("umount " + disk).isNull();
    }

    @Test
    void aWriteThatFillsTheDiskLeavesNothingBehindAndTrainingGoesOn(CapturedOutput log) throws Exception {
        ZeroModel zero = ZeroModel.of(MODEL);
        DenseStore store = zero.store();
        DeclaredModel model = zero.model();
        ShardMap map = zero.map();
        Optimizer adam = OptimizerType.ADAM.create(new OptimizerSettings(0.01, 0, false, 0.9, 0.999, 1e-8));
        Checkpointer checkpointer = new Checkpointer(new CheckpointStore(disk, Clock.systemUTC()),
                new Checkpointer.Schedule(4, Duration.ZERO, 1), store, model, ServerIdentity.standalone(0), adam,
                "ADAM", Clock.systemUTC());
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, adam, 1, Duration.ofSeconds(30), 0, checkpointer));

        pushSteps(policy, store, map, 0, 4);
        checkpointer.drain();
        assertThat(checkpointer.files().stepsNewestFirst()).containsExactly(4L);
        long partBytes;
        try (Stream<Path> files = Files.walk(disk)) {
            partBytes = files.filter(Files::isRegularFile).mapToLong(CheckpointFullDiskTest::size).sum();
        }
        Path filler = fillUntilLessThan(partBytes / 2);

        pushSteps(policy, store, map, 4, 8); // checkpoint 8 does not fit
        checkpointer.drain();
        assertThat(checkpointer.failures()).isEqualTo(1);
        assertThat(log).contains("Checkpoint step 8 could not be written to " + disk)
                .contains("its partial files were removed, training goes on");
        try (Stream<Path> files = Files.walk(disk)) {
            assertThat(files.map(p -> disk.relativize(p).toString()).filter(p -> !p.isEmpty()).sorted())
                    .as("no partial file, no empty step directory")
                    .containsExactly("filler", "step-000000000004", "step-000000000004/part-0-of-1.bin",
                            "step-000000000004/part-0-of-1.json");
        }
        assertThat(checkpointer.files().latestComplete().orElseThrow().step()).isEqualTo(4);
        assertThat(store.require(map.slices().get(0).key()).version()).as("training went on").isEqualTo(8);

        Files.delete(filler);
        pushSteps(policy, store, map, 8, 12);
        checkpointer.drain();
        assertThat(checkpointer.failures()).isEqualTo(1);
        assertThat(checkpointer.files().stepsNewestFirst()).as("written, and 4 pruned").containsExactly(12L);
        assertThat(checkpointer.files().latestComplete().orElseThrow().step()).isEqualTo(12);
        checkpointer.close();
    }

    private static void pushSteps(SyncPolicy policy, DenseStore store, ShardMap map, int from, int to) {
        for (int step = from; step < to; step++) {
            float g = 0.1f * (step + 1);
            List<GradientPush.SliceGradient> gradients = map.slices().stream()
                    .map(s -> new GradientPush.SliceGradient(store.require(s.key()),
                            Nd4j.valueArrayOf(new long[] {s.length()}, g, DataType.FLOAT)))
                    .toList();
            policy.accept(new GradientPush(0, step, gradients));
        }
    }

    /** Writes a file until the disk has fewer than {@code free} bytes left. */
    private Path fillUntilLessThan(long free) throws IOException {
        Path filler = disk.resolve("filler");
        try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer block = ByteBuffer.allocate(4096);
            while (Files.getFileStore(disk).getUsableSpace() >= free) {
                block.clear();
                ch.write(block);
            }
        }
        return filler;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return null when the command exits 0, else its exit code and output */
    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + " did not finish in 30 s";
        }
        String out = new String(p.getInputStream().readAllBytes()).strip();
        return p.exitValue() == 0 ? null : String.join(" ", command) + " exited " + p.exitValue() + ": " + out;
    }
}

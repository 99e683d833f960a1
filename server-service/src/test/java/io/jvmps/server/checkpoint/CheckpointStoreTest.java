package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointStoreTest {
    private static final List<ParamSpec> MODEL = List.of(new ParamSpec("W", new long[] {300, 70}),
            new ParamSpec("b", new long[] {70}), new ParamSpec("V", new long[] {5000}));

    @TempDir
    Path dir;

    @Test
    void partsOfTwoServersRestoreOntoThreeWithTheSameValuesAndState() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        float[][] full = fullValues(7);
        writeAll(files, 40, ShardMap.compute(MODEL, 2), full);

        Checkpoint cp = files.latestComplete().orElseThrow();
        assertThat(cp.step()).isEqualTo(40);
        assertThat(cp.servers()).isEqualTo(2);
        CheckpointImage image = cp.image();
        ShardMap three = ShardMap.compute(MODEL, 3);
        assertThat(three.slices()).isNotEqualTo(ShardMap.compute(MODEL, 2).slices());
        List<Slice> cuts = new ArrayList<>(three.slices());
        cuts.addAll(ShardMap.compute(MODEL, 1).slices());
        for (Slice s : cuts) {
            SliceCopy copy = image.cut(s);
            for (int i = 0; i < s.length(); i++) {
                float expected = full[s.paramIndex()][(int) s.offset() + i];
                assertThat(copy.values()[i]).isEqualTo(expected);
                assertThat(copy.state()[0][i]).isEqualTo(expected * 2);
                assertThat(copy.state()[1][i]).isEqualTo(-expected);
            }
            assertThat(copy.version()).isEqualTo(40);
        }
    }

    @Test
    void anUnfinishedOrDamagedNewerCheckpointLeavesThePreviousOneInUse() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        ShardMap map = ShardMap.compute(MODEL, 2);
        writeAll(files, 10, map, fullValues(1));
        // step 20: part 0 finished, part 1 killed mid-write (only a temporary file)
        files.write(part(20, 0, map, fullValues(2)));
        Path step20 = dir.resolve(CheckpointStore.stepDir(20));
        Files.write(step20.resolve("part-1-of-2.bin.tmp"), new byte[] {1, 2, 3});
        assertThat(files.latestComplete().orElseThrow().step()).isEqualTo(10);

        // step 30: complete, then one byte flipped on disk
        writeAll(files, 30, map, fullValues(3));
        Path bin = dir.resolve(CheckpointStore.stepDir(30)).resolve("part-1-of-2.bin");
        try (FileChannel ch = FileChannel.open(bin, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, 200);
            b.flip();
            b.put(0, (byte) (b.get(0) ^ 0x40));
            ch.write(b, 200);
        }
        assertThatThrownBy(() -> files.load(30)).hasMessageContaining("checksum");
        Checkpoint cp = files.latestComplete().orElseThrow();
        assertThat(cp.step()).isEqualTo(10);
        assertThat(cp.image().values()[2][17]).isEqualTo(fullValues(1)[2][17]);
    }

    @Test
    void pruneKeepsTheNewestCompleteOnesAndDropsOlderUnfinishedOnes() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        ShardMap map = ShardMap.compute(MODEL, 2);
        files.write(part(5, 0, map, fullValues(5))); // unfinished, older than complete ones
        for (long step : new long[] {10, 20, 30, 40}) {
            writeAll(files, step, map, fullValues((int) step));
        }
        files.write(part(50, 1, map, fullValues(50))); // in progress, newer: kept
        files.prune(2);
        assertThat(files.stepsNewestFirst()).containsExactly(50L, 40L, 30L);
    }

    @Test
    void aDamagedNewestCheckpointNeverMakesPruningDeleteTheLastGoodOne() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        ShardMap map = ShardMap.compute(MODEL, 2);
        writeAll(files, 10, map, fullValues(1));
        writeAll(files, 20, map, fullValues(2));
        Path bin = dir.resolve(CheckpointStore.stepDir(20)).resolve("part-0-of-2.bin");
        try (FileChannel ch = FileChannel.open(bin, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {9, 9, 9, 9}), 100);
        }
        files.prune(1);
        assertThat(files.stepsNewestFirst()).as("10 is the newest that verifies; the damaged 20 is left to inspect")
                .containsExactly(20L, 10L);
        assertThat(files.latestComplete().orElseThrow().step()).isEqualTo(10);

        writeAll(files, 30, map, fullValues(3));
        files.prune(1);
        assertThat(files.stepsNewestFirst()).containsExactly(30L);
    }

    @Test
    void serversPruningTheSharedDirectoryAtOnceNeitherFailNorLeaveOldSteps() throws Exception {
        ShardMap map = ShardMap.compute(MODEL, 2);
        CheckpointStore writer = new CheckpointStore(dir, Clock.systemUTC());
        float[][] full = fullValues(1);
        for (int round = 0; round < 5; round++) {
            for (long step = 1; step <= 12; step++) {
                writeAll(writer, round * 100L + step, map, full);
            }
            List<Thread> pruners = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int server = 0; server < 3; server++) {
                CheckpointStore own = new CheckpointStore(dir, Clock.systemUTC());
                Thread t = new Thread(() -> own.prune(2));
                t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
                pruners.add(t);
            }
            pruners.forEach(Thread::start);
            for (Thread t : pruners) {
                t.join(30_000);
                assertThat(t.isAlive()).as("pruner finished").isFalse();
            }
            assertThat(failures).as("round " + round).isEmpty();
            assertThat(writer.stepsNewestFirst()).as("round " + round)
                    .containsExactly(round * 100L + 12, round * 100L + 11);
        }
    }

    @Test
    void thePushLedgerTravelsWithThePartOfItsRank() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        ShardMap map = ShardMap.compute(MODEL, 2);
        float[][] full = fullValues(9);
        LedgerEntry entry = new LedgerEntry(1, (3L << 40) | 17, 11, new io.jvmps.common.protocol.PushAck(1, 11, 4, 900));
        CheckpointPart p0 = part(12, 0, map, full);
        CheckpointPart p1 = part(12, 1, map, full);
        files.write(p0);
        files.write(new CheckpointPart(12, 1, 2, "ADAM", 2, MODEL, p1.slices(), List.of(entry)));
        CheckpointImage image = files.latestComplete().orElseThrow().image();
        assertThat(image.ledgerFor(1, 2)).containsExactly(entry);
        assertThat(image.ledgerFor(0, 2)).isEmpty();
        assertThat(image.ledgerFor(1, 3)).as("another server count: acks would name the wrong server").isEmpty();
    }

    @Test
    void eachPartsWorkerClocksComeBackAndWorkersResumeAtTheEarliestAnyPartLacks() throws IOException {
        CheckpointStore files = new CheckpointStore(dir, Clock.systemUTC());
        ShardMap map = ShardMap.compute(MODEL, 2);
        float[][] full = fullValues(4);
        // ASYNC, 2 workers, 9 pushes on each server, taken in another order: the parts' cuts differ
        files.write(new CheckpointPart(9, 0, 2, "ADAM", 2, MODEL, part(9, 0, map, full).slices(), List.of(),
                List.of(), List.of(5L, 4L)));
        files.write(new CheckpointPart(9, 1, 2, "ADAM", 2, MODEL, part(9, 1, map, full).slices(), List.of(),
                List.of(), List.of(4L, 5L)));
        CheckpointImage image = files.latestComplete().orElseThrow().image();

        assertThat(image.resumeClocks()).containsExactly(4L, 4L);
        assertThat(image.appliedClocks(0, 2)).as("server 0 holds worker 0's step 4").containsExactly(5L, 4L);
        assertThat(image.appliedClocks(1, 2)).containsExactly(4L, 5L);
        assertThat(image.appliedClocks(1, 3)).as("restored onto 3 servers: slices mix parts")
                .containsExactly(4L, 4L);
        assertThat(image.withoutSparse().resumeClocks()).containsExactly(4L, 4L);

        writeAll(files, 10, map, full); // SYNC parts keep no clocks
        assertThat(files.latestComplete().orElseThrow().image().resumeClocks()).isEmpty();
    }

    @Test
    void aFileThatIsNotACheckpointIsRefusedByName() throws IOException {
        Path f = dir.resolve("junk.bin");
        Files.write(f, new byte[64]);
        try (var in = new java.io.DataInputStream(Files.newInputStream(f))) {
            assertThatThrownBy(() -> CheckpointFormat.read(in)).hasMessageContaining("bad magic");
        }
    }

    private static void writeAll(CheckpointStore files, long step, ShardMap map, float[][] full) throws IOException {
        for (int rank = 0; rank < map.servers(); rank++) {
            files.write(part(step, rank, map, full));
        }
    }

    private static CheckpointPart part(long step, int rank, ShardMap map, float[][] full) {
        List<SliceCopy> copies = new ArrayList<>();
        for (Slice s : map.slicesOf(rank)) {
            float[] v = new float[s.length()];
            float[] m = new float[s.length()];
            float[] u = new float[s.length()];
            for (int i = 0; i < v.length; i++) {
                v[i] = full[s.paramIndex()][(int) s.offset() + i];
                m[i] = v[i] * 2;
                u[i] = -v[i];
            }
            copies.add(new SliceCopy(s.paramIndex(), s.offset(), v, new float[][] {m, u}, step));
        }
        return new CheckpointPart(step, rank, map.servers(), "ADAM", 2, MODEL, copies);
    }

    private static float[][] fullValues(int seed) {
        Random r = new Random(seed);
        float[][] full = new float[MODEL.size()][];
        for (int p = 0; p < full.length; p++) {
            full[p] = new float[(int) MODEL.get(p).elements()];
            for (int i = 0; i < full[p].length; i++) {
                full[p][i] = (float) r.nextGaussian();
            }
        }
        return full;
    }
}

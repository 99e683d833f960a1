package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A separate process for {@link KilledCheckpointWriteTest}: writes 2-part checkpoints of one large
 * ADAM parameter at steps 10, 20, 30, ... into the directory given as its argument, forever, until it
 * is killed.
 */
public final class CheckpointWriterProcess {
    static final int ELEMENTS = 6_000_000;

    private CheckpointWriterProcess() {
    }

    /** @param args the checkpoint directory */
    public static void main(String[] args) throws Exception {
        CheckpointStore files = new CheckpointStore(Path.of(args[0]), Clock.systemUTC());
        List<ParamSpec> model = List.of(new ParamSpec("E", new long[] {ELEMENTS}));
        int half = ELEMENTS / 2;
        for (long step = 10; ; step += 10) {
            for (int rank = 0; rank < 2; rank++) {
                float[] values = new float[half];
                java.util.Arrays.fill(values, step + rank);
                SliceCopy copy = new SliceCopy(0, (long) rank * half, values,
                        new float[][] {values.clone(), values.clone()}, step);
                files.write(new CheckpointPart(step, rank, 2, "ADAM", 2, model, List.of(copy)));
            }
            System.out.println("wrote step " + step);
        }
    }
}

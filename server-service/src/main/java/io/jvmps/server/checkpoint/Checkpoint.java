package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A complete checkpoint as read back: every part of one step, checked to agree with each other and
 * to cover every element of every parameter exactly once. Immutable after construction.
 *
 * @param step  the step it was taken at
 * @param dir   where it was read from
 * @param parts one part per writing server, by rank
 */
public record Checkpoint(long step, Path dir, List<CheckpointPart> parts) {

    /** @return the declared model the checkpoint holds */
    public List<ParamSpec> params() {
        return parts.get(0).params();
    }

    /** @return the optimizer name it was written with */
    public String optimizer() {
        return parts.get(0).optimizer();
    }

    /** @return optimizer state slots per element */
    public int stateSlots() {
        return parts.get(0).stateSlots();
    }

    /** @return number of servers that wrote it */
    public int servers() {
        return parts.get(0).servers();
    }

    /**
     * Joins the parts into whole parameters.
     *
     * @throws IOException when the parts disagree on the model or do not cover it exactly once
     */
    public CheckpointImage image() throws IOException {
        CheckpointPart first = parts.get(0);
        for (CheckpointPart p : parts) {
            if (!p.params().equals(first.params()) || !p.optimizer().equals(first.optimizer())
                    || p.stateSlots() != first.stateSlots()) {
                throw new IOException("parts 0 and " + p.rank() + " of step " + step + " disagree on the model or "
                        + "optimizer: " + first.params() + " " + first.optimizer() + " against " + p.params() + " "
                        + p.optimizer());
            }
        }
        List<ParamSpec> params = first.params();
        int slots = first.stateSlots();
        float[][] values = new float[params.size()][];
        float[][][] state = new float[params.size()][slots][];
        List<List<SliceCopy>> byParam = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            values[i] = new float[(int) params.get(i).elements()];
            for (int s = 0; s < slots; s++) {
                state[i][s] = new float[values[i].length];
            }
            byParam.add(new ArrayList<>());
        }
        parts.forEach(p -> p.slices().forEach(c -> byParam.get(c.paramIndex()).add(c)));
        for (int i = 0; i < params.size(); i++) {
            List<SliceCopy> copies = byParam.get(i);
            copies.sort(Comparator.comparingLong(SliceCopy::offset));
            long next = 0;
            for (SliceCopy c : copies) {
                if (c.offset() != next) {
                    throw new IOException("step " + step + ": parameter " + params.get(i) + " has "
                            + (c.offset() < next ? "overlapping slices" : "no values") + " at element " + next);
                }
                System.arraycopy(c.values(), 0, values[i], (int) c.offset(), c.length());
                for (int s = 0; s < slots; s++) {
                    System.arraycopy(c.state()[s], 0, state[i][s], (int) c.offset(), c.length());
                }
                next += c.length();
            }
            if (next != values[i].length) {
                throw new IOException("step " + step + ": parameter " + params.get(i) + " has values for " + next
                        + " of its " + values[i].length + " elements");
            }
        }
        List<io.jvmps.server.sparse.SparseRows> sparse;
        try {
            sparse = io.jvmps.server.sparse.SparseRows.merge(parts.stream().flatMap(p -> p.sparse().stream()).toList());
        } catch (IllegalArgumentException e) {
            throw new IOException("step " + step + ": " + e.getMessage(), e);
        }
        return new CheckpointImage(step, params, first.optimizer(), slots, values, state,
                parts.stream().map(CheckpointPart::ledger).toList(), sparse,
                parts.stream().map(CheckpointPart::clocks).toList());
    }
}

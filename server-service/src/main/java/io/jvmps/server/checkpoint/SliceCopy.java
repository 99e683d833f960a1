package io.jvmps.server.checkpoint;

/**
 * One slice's values and optimizer state as copied for a checkpoint, placed by its position in the
 * parameter rather than by slice key, so the copy means the same under any server count.
 *
 * @param paramIndex index of the parameter in the declared model
 * @param offset     index of the slice's first element within the parameter (row-major)
 * @param values     the slice's values, {@code length} floats
 * @param state      optimizer state slots, each {@code values.length} floats (none for SGD)
 * @param version    updates applied to the slice when it was copied
 */
public record SliceCopy(int paramIndex, long offset, float[] values, float[][] state, long version) {
    /** @return number of elements */
    public int length() {
        return values.length;
    }
}

package io.jvmps.client.dataset;

/**
 * A half-open range of example indices {@code [from, to)}.
 *
 * @param from first index, inclusive
 * @param to   end index, exclusive; {@code from <= to}
 */
public record IndexRange(int from, int to) {

    /** Validates the bounds. */
    public IndexRange {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("invalid index range [" + from + ", " + to + ")");
        }
    }

    /** @return number of indices in the range */
    public int size() {
        return to - from;
    }
}

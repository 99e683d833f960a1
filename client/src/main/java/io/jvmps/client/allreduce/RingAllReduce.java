package io.jvmps.client.allreduce;

/**
 * Ring AllReduce (average) of one float vector over the W workers of a {@link RingLink}, in rank
 * order. The vector is cut into W contiguous segments. Reduce-scatter: in round r worker k sends
 * segment (k - r) mod W to worker k + 1 and adds the segment (k - r - 1) mod W it receives from
 * worker k - 1 into its own; after W - 1 rounds worker k holds the full sum of segment (k + 1) mod W,
 * which it divides by W. All-gather: in round r worker k sends segment (k + 1 - r) mod W and
 * overwrites segment (k - r) mod W with what it receives. Each worker sends and receives
 * 2 (W - 1) / W of the vector; every worker ends with bit-identical averages (each segment is
 * summed and divided once, then copied). With W = 1 nothing moves. Not thread-safe.
 */
public class RingAllReduce {
    private final RingLink link;

    /** @param link this worker's ring neighbours */
    public RingAllReduce(RingLink link) {
        this.link = link;
    }

    /** @return the link */
    public RingLink link() {
        return link;
    }

    /**
     * Replaces {@code data} by the element-wise average of every worker's {@code data}. Every worker
     * must call this for the same step with vectors of the same length.
     *
     * @param step the training step (identifies the messages)
     */
    public void average(long step, float[] data) {
        int workers = link.size();
        if (workers == 1) {
            return;
        }
        int k = link.rank();
        for (int round = 0; round < workers - 1; round++) {
            int out = Math.floorMod(k - round, workers);
            int in = Math.floorMod(k - round - 1, workers);
            float[] received = exchange(new RingKey(step, RingPhase.REDUCE_SCATTER, round), data, out, in);
            int from = start(in, data.length, workers);
            for (int i = 0; i < received.length; i++) {
                data[from + i] += received[i];
            }
        }
        int mine = Math.floorMod(k + 1, workers);
        for (int i = start(mine, data.length, workers); i < start(mine + 1, data.length, workers); i++) {
            data[i] /= workers;
        }
        for (int round = 0; round < workers - 1; round++) {
            int out = Math.floorMod(k + 1 - round, workers);
            int in = Math.floorMod(k - round, workers);
            float[] received = exchange(new RingKey(step, RingPhase.ALL_GATHER, round), data, out, in);
            System.arraycopy(received, 0, data, start(in, data.length, workers), received.length);
        }
    }

    private float[] exchange(RingKey key, float[] data, int out, int in) {
        int workers = link.size();
        int outFrom = start(out, data.length, workers);
        RingLink.Sent sent = link.send(key, out, data, outFrom, start(out + 1, data.length, workers) - outFrom);
        int inFrom = start(in, data.length, workers);
        float[] received = link.receive(key, in, start(in + 1, data.length, workers) - inFrom);
        sent.await();
        return received;
    }

    /** @return first element of a segment: segments differ in length by at most one */
    static int start(int segment, int length, int workers) {
        return (int) ((long) length * segment / workers);
    }
}

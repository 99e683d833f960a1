package io.jvmps.client.allreduce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs one AllReduce per rank, each on its own thread, as the workers of a job would. For tests. */
public final class RingRuns {
    private RingRuns() {
    }

    /**
     * @param links  one link per rank, by rank
     * @param inputs each rank's vector (copied for every step)
     * @param steps  AllReduces each rank runs, with steps 0, 1, ...
     * @return each rank's vector after its last AllReduce
     */
    public static float[][] average(List<? extends RingLink> links, float[][] inputs, int steps) throws Exception {
        int workers = links.size();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<float[]>> results = new ArrayList<>();
            for (int r = 0; r < workers; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    RingAllReduce reduce = new RingAllReduce(links.get(rank));
                    float[] data = null;
                    for (int step = 0; step < steps; step++) {
                        data = inputs[rank].clone();
                        reduce.average(step, data);
                    }
                    return data;
                }));
            }
            float[][] out = new float[workers][];
            for (int r = 0; r < workers; r++) {
                out[r] = results.get(r).get(20, TimeUnit.SECONDS);
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}

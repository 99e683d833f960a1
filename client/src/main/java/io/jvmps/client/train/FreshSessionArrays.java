package io.jvmps.client.train;

import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.InferenceSession;
import org.nd4j.autodiff.samediff.internal.memory.NoOpMemoryMgr;

/**
 * Makes a SameDiff graph (and its gradient function) give every op a fresh output array instead of
 * reusing arrays from earlier steps. With nd4j's oneDNN build, reusing them (SameDiff's default
 * {@code ArrayCacheMemoryMgr}) makes every training step after the first compute a wrong loss and wrong
 * gradients (LeNet-5 diverges within 20 steps); fresh arrays give the generic build's numbers, and the
 * oneDNN kernels still make the step about 3x faster (docs/benchmarks.md). Sessions are per thread, so
 * this is called on the computing thread before each run. Stateless.
 */
public final class FreshSessionArrays {
    private FreshSessionArrays() {
    }

    /** Gives the current thread's sessions of {@code sd} and of its gradient function fresh arrays per op. */
    public static void apply(SameDiff sd) {
        freshFor(sd);
        SameDiff grad = sd.getFunction("grad");
        if (grad != null) {
            freshFor(grad);
        }
    }

    private static void freshFor(SameDiff graph) {
        InferenceSession session = graph.getSessions().computeIfAbsent(Thread.currentThread().getId(),
                id -> new InferenceSession(graph));
        if (!(session.getMmgr() instanceof NoOpMemoryMgr)) {
            session.setMmgr(new NoOpMemoryMgr());
        }
    }
}

package io.jvmps.client.train;

import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.InferenceSession;
import org.nd4j.autodiff.samediff.internal.memory.NoOpMemoryMgr;

/**
 * Makes a SameDiff graph (and its gradient function) give every op a fresh output array instead of
 * reusing arrays from earlier steps, and keeps its sessions from growing over a long job.
 * <p>
 * With nd4j's oneDNN build, reusing arrays (SameDiff's default {@code ArrayCacheMemoryMgr}) makes every
 * training step after the first compute a wrong loss and wrong gradients (LeNet-5 diverges within 20 steps);
 * fresh arrays give the generic build's numbers, and the oneDNN kernels still make the step about 3x faster
 * (docs/benchmarks.md).
 * <p>
 * An nd4j 1.0.0-M2.1 session remembers the id of every array it ever freed and never forgets one: about five
 * per LeNet-5 step, 14 MiB of heap in a 30-minute job, without end. A session that has remembered
 * {@link #MAX_FREED_IDS} ids is replaced by a new one before the next run (the ids only guard against freeing
 * an array twice within a run; the new session builds its op contexts again once). Sessions are per thread,
 * so this is called on the computing thread before each run. Stateless.
 */
public final class FreshSessionArrays {
    /** Freed-array ids a session may remember before it is replaced (about 0.7 MiB of heap). */
    static final int MAX_FREED_IDS = 10_000;

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
        long thread = Thread.currentThread().getId();
        InferenceSession session = graph.getSessions().get(thread);
        if (!(session instanceof BoundedSession bounded) || bounded.freedIds() > MAX_FREED_IDS) {
            graph.getSessions().put(thread, new BoundedSession(graph));
        }
    }

    /** A session with fresh arrays per op that tells how many freed-array ids it remembers. */
    static final class BoundedSession extends InferenceSession {
        BoundedSession(SameDiff graph) {
            super(graph);
            setMmgr(new NoOpMemoryMgr());
        }

        /** @return how many ids of freed arrays this session remembers */
        int freedIds() {
            return freedArrays.size();
        }
    }
}

package io.jvmps.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs another optimizer's dense updates on several threads: a slice of at least two spans' worth of
 * elements is cut into at most {@code threads} disjoint spans, the calling thread updates the first and
 * helper threads the others, and {@link #apply} returns when all are done (so the caller's slice lock covers
 * the whole update). Rows and small slices are updated on the calling thread. The arithmetic is the inner
 * optimizer's, element for element, so results do not depend on the thread count. Thread-safe; close it to
 * stop the helpers.
 */
public final class ParallelOptimizer implements Optimizer, AutoCloseable {
    /** Fewest elements worth handing to another thread (1 MiB of floats): below, the hand-off costs more. */
    public static final int MIN_SPAN = 1 << 18;
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final Optimizer inner;
    private final int threads;
    private final ExecutorService helpers;

    /**
     * @param inner   the update rule
     * @param threads threads one update may use, including the caller, &gt;= 1
     */
    public ParallelOptimizer(Optimizer inner, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.inner = inner;
        this.threads = threads;
        int pool = POOLS.incrementAndGet();
        AtomicInteger count = new AtomicInteger();
        this.helpers = threads == 1 ? null : Executors.newFixedThreadPool(threads - 1, runnable -> {
            Thread t = new Thread(runnable, "optimizer-" + pool + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** @return threads one update may use, including the caller */
    public int threads() {
        return threads;
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        int length = (int) param.length();
        int parts = Math.min(threads, Math.max(1, length / MIN_SPAN));
        if (parts == 1) {
            inner.apply(param, gradient, state, step);
            return;
        }
        int span = (length + parts - 1) / parts;
        Future<?>[] others = new Future<?>[parts - 1];
        for (int i = 1; i < parts; i++) {
            int from = i * span;
            int to = Math.min(length, from + span);
            others[i - 1] = helpers.submit(() -> inner.update(UpdateSpan.dense(param, gradient, state, from, to), step));
        }
        RuntimeException failure = null;
        try {
            inner.update(UpdateSpan.dense(param, gradient, state, 0, span), step);
        } catch (RuntimeException e) {
            failure = e;
        }
        for (Future<?> other : others) { // wait for every span, also after a failure: none may still write
            try {
                other.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while a parallel update was running", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void update(UpdateSpan span, long step) {
        inner.update(span, step);
    }

    @Override
    public OptimizerState newState(int length) {
        return inner.newState(length);
    }

    @Override
    public int rowStateSlots() {
        return inner.rowStateSlots();
    }

    @Override
    public int rowStateFloats(int dim) {
        return inner.rowStateFloats(dim);
    }

    @Override
    public boolean rowsOnly() {
        return inner.rowsOnly();
    }

    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        inner.applyRow(row, offset, dim, gradient, gradientOffset, step);
    }

    @Override
    public float rowStateInitialValue() {
        return inner.rowStateInitialValue();
    }

    @Override
    public String describe() {
        return inner.describe();
    }

    @Override
    public void close() {
        if (helpers != null) {
            helpers.shutdownNow();
        }
    }
}

package io.jvmps.common.embedding;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The order of the cache's calls into its {@link RowStore}: each runs on the executor after every call issued
 * before it, so a read of a row always follows the write-back of its earlier eviction, and the training thread
 * waits only when it needs a result now. The first failure fails every later wait. Not thread-safe: the cache's
 * training thread issues every call.
 */
final class StoreCalls {
    private final Executor executor;
    private CompletableFuture<?> last = CompletableFuture.completedFuture(null);

    StoreCalls(Executor executor) {
        this.executor = executor;
    }

    /** Runs {@code call} after every earlier call, off the calling thread. */
    void run(Runnable call) {
        last = last.thenRunAsync(call, executor);
    }

    /** @return the result of {@code call}, run after every earlier call, off the calling thread */
    <T> CompletableFuture<T> supply(Supplier<T> call) {
        CompletableFuture<T> result = last.thenApplyAsync(previous -> call.get(), executor);
        last = result;
        return result;
    }

    /** Waits until every call issued so far has run; rethrows the first failure. */
    void awaitAll() {
        try {
            last.join();
        } catch (CompletionException | CancellationException e) {
            throw failure(e);
        }
    }

    /** Rethrows the first failure if a call has already failed; never waits. */
    void failIfFailed() {
        if (last.isCompletedExceptionally()) {
            awaitAll();
        }
    }

    private static RuntimeException failure(RuntimeException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return cause instanceof RuntimeException runtime ? runtime
                : new IllegalStateException("embedding store call failed: " + cause, cause);
    }
}

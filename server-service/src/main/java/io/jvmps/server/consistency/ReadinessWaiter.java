package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Waits, without blocking a thread, until every requested slice is initialised and at a minimum
 * version, within a deadline; past it, fails with {@link ErrorCode#TIMEOUT} naming each slice that
 * was not ready and why. Thread-safe.
 */
final class ReadinessWaiter {
    private static final int MAX_NAMED = 20;
    private final DenseStore store;
    private final Duration timeout;

    ReadinessWaiter(DenseStore store, Duration timeout) {
        this.store = store;
        this.timeout = timeout;
    }

    /**
     * @param keys       keys in answer order
     * @param minVersion version to reach; 0 waits for initialisation only
     * @param why        describes why an initialised slice is still below {@code minVersion}
     * @return the slices in key order
     */
    Mono<List<DenseSlice>> await(long[] keys, long minVersion, Function<DenseSlice, String> why) {
        List<DenseSlice> ready = readyNow(keys, minVersion);
        if (ready != null) {
            return Mono.just(ready);
        }
        return untimed(keys, minVersion)
                .timeout(timeout)
                .onErrorMap(TimeoutException.class, e -> timedOut(keys, minVersion, why));
    }

    /**
     * The same wait without a deadline, for a policy that puts its own deadline around a longer wait.
     * It resumes on a parallel worker, never on the thread whose push woke it.
     */
    Mono<List<DenseSlice>> untimed(long[] keys, long minVersion) {
        return Flux.fromStream(Arrays.stream(keys).boxed())
                .concatMap(key -> store.await(key).flatMap(s -> s.awaitVersion(minVersion).thenReturn(s)))
                .collectList()
                .publishOn(Schedulers.parallel());
    }

    /** @return the pull deadline */
    Duration timeout() {
        return timeout;
    }

    private List<DenseSlice> readyNow(long[] keys, long minVersion) {
        List<DenseSlice> slices = new ArrayList<>(keys.length);
        for (long key : keys) {
            DenseSlice s = store.get(key);
            if (s == null || s.version() < minVersion) {
                return null;
            }
            slices.add(s);
        }
        return slices;
    }

    /** @return the {@code TIMEOUT} error naming every slice that is not ready, and why */
    PsException timedOut(long[] keys, long minVersion, Function<DenseSlice, String> why) {
        List<String> reasons = new ArrayList<>();
        int notReady = 0;
        for (long key : keys) {
            DenseSlice slice = store.get(key);
            String reason = slice == null ? "not initialised"
                    : slice.version() < minVersion ? "at version " + slice.version() + ", " + why.apply(slice) : null;
            if (reason != null) {
                notReady++;
                if (reasons.size() < MAX_NAMED) {
                    reasons.add(SliceKey.describe(key) + " " + reason);
                }
            }
        }
        String more = notReady > reasons.size() ? "; and " + (notReady - reasons.size()) + " more" : "";
        return new PsException(ErrorCode.TIMEOUT, "pull of " + keys.length + " slice(s) at version " + minVersion
                + " not ready after " + timeout + ": " + notReady + " slice(s) waiting: " + String.join("; ", reasons)
                + more);
    }
}

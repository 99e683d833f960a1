package io.jvmps.server.monitor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The server's Micrometer meters: {@code ps.server.push}, {@code ps.server.init} and
 * {@code ps.server.pull}, {@code ps.server.sparse.pull}, {@code ps.server.sparse.push} timers with p50/p95/p99 (tag {@code outcome}: success, error, cancel),
 * {@code ps.server.bytes.in} / {@code ps.server.bytes.out} counters. The update counters are
 * registered by {@link ConsistencyMeters}. Thread-safe.
 */
public final class ServerMetrics {
    private final MeterRegistry registry;
    private static final String[] OUTCOMES = {"success", "error", "cancel"};
    /** The request timers by outcome (success, error, cancel), each by name. */
    @SuppressWarnings("unchecked")
    private final java.util.Map<String, Timer>[] timers = new java.util.Map[] {
            new java.util.concurrent.ConcurrentHashMap<String, Timer>(),
            new java.util.concurrent.ConcurrentHashMap<String, Timer>(),
            new java.util.concurrent.ConcurrentHashMap<String, Timer>()};
    private final Counter bytesIn;
    private final Counter bytesOut;

    /** @param registry where meters live */
    public ServerMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.bytesIn = Counter.builder("ps.server.bytes.in").baseUnit("bytes")
                .description("tensor frame bytes received (init and push)").register(registry);
        this.bytesOut = Counter.builder("ps.server.bytes.out").baseUnit("bytes")
                .description("tensor frame bytes sent (pull)").register(registry);
    }

    /** Counts received frame bytes. */
    public void bytesIn(long bytes) {
        bytesIn.increment(bytes);
    }

    /** Counts sent frame bytes. */
    public void bytesOut(long bytes) {
        bytesOut.increment(bytes);
    }

    /** @return the init, timed from subscription to its end */
    public <T> Mono<T> timeInit(Mono<T> init) {
        return time("ps.server.init", "slice initialisation", init);
    }

    /** @return the push, timed from subscription to its end */
    public <T> Mono<T> timePush(Mono<T> push) {
        return time("ps.server.push", "gradient push", push);
    }

    /** @return the sparse pull, timed from subscription to its end */
    public <T> Mono<T> timeSparsePull(Mono<T> pull) {
        return time("ps.server.sparse.pull", "sparse row pull", pull);
    }

    /** @return the sparse push, timed from subscription to its end */
    public <T> Mono<T> timeSparsePush(Mono<T> push) {
        return time("ps.server.sparse.push", "sparse row push", push);
    }

    private <T> Mono<T> time(String name, String description, Mono<T> operation) {
        return Mono.defer(() -> {
            Timer.Sample sample = Timer.start(registry);
            return operation.doFinally(signal -> sample.stop(timer(name, description, signal)));
        });
    }

    /** @return the pull, timed from subscription (including any wait for versions) to its end */
    public <T> Flux<T> timePull(Flux<T> pull) {
        return Flux.defer(() -> {
            Timer.Sample sample = Timer.start(registry);
            return pull.doFinally(signal -> sample.stop(timer("ps.server.pull", "parameter pull", signal)));
        });
    }

    private Timer timer(String name, String description, SignalType signal) {
        int outcome = switch (signal) {
            case ON_COMPLETE -> 0;
            case ON_ERROR -> 1;
            default -> 2;
        };
        // registered on first use and then found without building its id again: every request records one
        return timers[outcome].computeIfAbsent(name, n -> Timer.builder(n).description(description)
                .tag("outcome", OUTCOMES[outcome]).publishPercentiles(0.5, 0.95, 0.99).register(registry));
    }
}

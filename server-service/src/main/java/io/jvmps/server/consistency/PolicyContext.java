package io.jvmps.server.consistency;

import io.jvmps.server.optimizer.Optimizer;
import io.jvmps.server.store.DenseStore;

import java.time.Duration;

/**
 * What a {@link ConsistencyPolicy} is built from. Immutable.
 *
 * @param store       the slices
 * @param optimizer   the update rule
 * @param workers     number of workers of the job ({@code ps.cluster.worker-num})
 * @param pullTimeout deadline of a pull waiting for its slices ({@code ps.server.pull-timeout})
 */
public record PolicyContext(DenseStore store, Optimizer optimizer, int workers, Duration pullTimeout) {
}

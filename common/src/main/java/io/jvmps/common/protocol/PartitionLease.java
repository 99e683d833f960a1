package io.jvmps.common.protocol;

/**
 * The scheduler's answer to a {@link PartitionRequest}: the partition the worker trains next, or none
 * left to hand out (every partition is done or held by another live worker), after which the worker
 * finishes. The lowest pending (epoch, partition) is handed out first.
 *
 * @param granted   true when {@code epoch} and {@code partition} name a partition for this worker
 * @param epoch     its epoch (0-based), -1 when not granted
 * @param partition its index within the epoch, -1 when not granted
 * @param done      partitions of the whole job finished so far
 * @param total     partitions of the whole job (epochs x partitions)
 */
public record PartitionLease(boolean granted, int epoch, int partition, long done, long total) {
}

package io.jvmps.common.protocol;

/**
 * A worker's request for the next data partition to train, {@code POST /api/v1/data/partitions}
 * (dynamic data sharding, see {@code docs/protocol.md}). The training data of each epoch is cut into
 * {@code partitions} equal parts of one seeded permutation; the scheduler hands each (epoch, partition)
 * to one worker at a time. Every worker of a job must send the same {@code epochs} and
 * {@code partitions}.
 *
 * @param nodeId        the asking worker's node id
 * @param epochs        epochs of the job (&gt;= 1)
 * @param partitions    partitions per epoch (&gt;= 1)
 * @param doneEpoch     epoch of the partition this worker just finished, or -1 for none
 * @param donePartition that partition's index, or -1 for none
 */
public record PartitionRequest(String nodeId, int epochs, int partitions, int doneEpoch, int donePartition) {
}

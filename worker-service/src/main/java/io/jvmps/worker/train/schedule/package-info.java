/**
 * Which examples each step of a worker trains on: the static shard of its rank
 * ({@link io.jvmps.worker.train.schedule.Steps}) or partitions leased from the scheduler one at a time
 * ({@link io.jvmps.worker.train.schedule.DynamicSchedule}), from the loop's settings.
 */
package io.jvmps.worker.train.schedule;

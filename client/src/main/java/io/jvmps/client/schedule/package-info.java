/**
 * Which examples each step of a worker (a training loop of the library's or the stock worker's) trains on: the static shard of its rank
 * ({@link io.jvmps.client.schedule.Steps}) or partitions leased from the scheduler one at a time
 * ({@link io.jvmps.client.schedule.DynamicSchedule}), from the loop's settings.
 */
package io.jvmps.client.schedule;

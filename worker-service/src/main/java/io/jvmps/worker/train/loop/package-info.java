/**
 * The stock model's training loops, one per consistency mode's step shape: pull, compute, push
 * ({@link io.jvmps.worker.train.loop.PullComputePushLoop}, SYNC, ASYNC and SSP) and GEO's local steps with a delta
 * push per round ({@link io.jvmps.worker.train.loop.GeoLoop}), chosen by
 * {@link io.jvmps.worker.train.loop.TrainingLoops}; and the model's parameters as the servers hold them.
 */
package io.jvmps.worker.train.loop;

/**
 * What a worker tells about its training while it runs: its state for REST and health
 * ({@link io.jvmps.worker.train.progress.TrainingState}), each step's report to the scheduler and the log
 * ({@link io.jvmps.worker.train.progress.StepReporter}), the time per phase and the meters.
 */
package io.jvmps.worker.train.progress;

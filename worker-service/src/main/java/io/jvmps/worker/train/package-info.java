/**
 * A worker's job from start to end ({@link io.jvmps.worker.train.WorkerJob}): register, load the data and the model,
 * wait for the servers, initialise or wait for the parameters, join, train through the loops of
 * {@code train.loop} or the table jobs of {@code train.table} (recovering from a lost server's state when
 * checkpoints allow), evaluate, report and export. The schedules are in {@code train.schedule}, what the job
 * reports while it runs in {@code train.progress}.
 */
package io.jvmps.worker.train;

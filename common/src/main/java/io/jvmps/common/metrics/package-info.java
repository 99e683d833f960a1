/** Test-set metrics that workers compute on their shards and the scheduler merges into the job's. */
package io.jvmps.common.metrics;

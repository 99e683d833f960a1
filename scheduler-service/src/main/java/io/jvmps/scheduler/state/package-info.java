/** The scheduler's durable job state: ranks, data leases, finished partitions and results kept across a restart. */
package io.jvmps.scheduler.state;

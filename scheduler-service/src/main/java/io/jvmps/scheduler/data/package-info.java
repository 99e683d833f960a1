/** Dynamic data sharding: the partitions of every epoch the scheduler leases to workers one at a time, and which are done. */
package io.jvmps.scheduler.data;

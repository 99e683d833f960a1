/** The scheduler: rendezvous, rank assignment, cluster view, failure detection and job progress. */
package io.jvmps.scheduler;

/** Registration with the scheduler, heartbeats and waiting for every server to be reachable. */
package io.jvmps.worker.cluster;

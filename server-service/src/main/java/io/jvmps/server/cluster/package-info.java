/** This server's identity in the cluster: registration with the scheduler, heartbeats, leaving. */
package io.jvmps.server.cluster;

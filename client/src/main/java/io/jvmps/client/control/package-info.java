/**
 * Control calls: membership with the scheduler (register, heartbeats, leave), waiting for the servers,
 * and the servers' control routes (describe, declare, join a step, recover after a lost server).
 */
package io.jvmps.client.control;

/**
 * The client's wire: one multiplexed RSocket connection per server (plain TCP or TLS, presenting the
 * cluster secret at SETUP), routed raw payloads for tensor data and JSON requests for control calls.
 * No Spring.
 */
package io.jvmps.client.transport;

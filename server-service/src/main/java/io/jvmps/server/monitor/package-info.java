/** Observability of a server: Micrometer metrics, the status snapshot and the health indicator. */
package io.jvmps.server.monitor;

/** The worker's side of the wire: connections to every server, slice routing, push and pull. */
package io.jvmps.worker.client;

/** Ring AllReduce among the workers over RSocket: the maths, the inbound mailbox, the routes and the transport. */
package io.jvmps.worker.allreduce;

/** The ring AllReduce among a job's workers: the endpoint each worker binds, the link to its neighbour, and the averaging itself. */
package io.jvmps.client.allreduce;

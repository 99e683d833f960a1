/** The sparse linear job's model: a softmax regression whose weight rows live in a sparse table on the servers. */
package io.jvmps.worker.linear;

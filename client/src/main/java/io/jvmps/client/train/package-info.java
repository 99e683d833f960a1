/** Training a SameDiff graph through the servers: the checked graph, the pull-compute-push trainer, GEO rounds and parameters kept on the workers. */
package io.jvmps.client.train;

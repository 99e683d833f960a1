/** The worker jar's {@code predict} command: classifies a data set with an exported model, without a cluster. */
package io.jvmps.worker.predict;

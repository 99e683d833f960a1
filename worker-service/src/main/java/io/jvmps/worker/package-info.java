/** The worker service: trains a model against the parameter servers. */
package io.jvmps.worker;

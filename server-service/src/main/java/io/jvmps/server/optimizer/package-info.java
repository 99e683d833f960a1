/** Server-side optimizers that turn an averaged gradient into an in-place parameter update. */
package io.jvmps.server.optimizer;

/** Trainable models as the worker sees them: named dense parameters, gradients out, parameters in (SameDiff graphs). */
package io.jvmps.worker.model;

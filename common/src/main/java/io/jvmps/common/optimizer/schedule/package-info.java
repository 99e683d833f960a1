/** Learning-rate schedules: the rate an optimizer uses for the n-th update of a slice. */
package io.jvmps.common.optimizer.schedule;

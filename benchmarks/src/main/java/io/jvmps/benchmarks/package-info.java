/** JMH benchmarks of the hot loops (the tensor codec, the optimizer kernels), run by scripts/jmh.sh. */
package io.jvmps.benchmarks;

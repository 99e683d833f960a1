/** Multi-process tests: the real Boot jars started on loopback, checked by their numbers. */
package io.jvmps.cluster;

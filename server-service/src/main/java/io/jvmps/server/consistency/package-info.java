/** Consistency modes: when a pushed gradient is applied and when a pull may be answered. */
package io.jvmps.server.consistency;

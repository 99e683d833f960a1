/** Cutting dense parameters into slices and placing slices on servers: a pure, deterministic function every node computes alike. */
package io.jvmps.common.sharding;

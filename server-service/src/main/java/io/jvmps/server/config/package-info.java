/** Typed, validated {@code ps.*} configuration and the beans wiring store, optimizer, consistency and transport. */
package io.jvmps.server.config;

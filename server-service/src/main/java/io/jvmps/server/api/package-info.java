/** Thin RSocket controllers for the routes of {@link io.jvmps.common.protocol.Routes}, and their frame plumbing. */
package io.jvmps.server.api;

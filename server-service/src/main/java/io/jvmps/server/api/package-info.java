/**
 * The routes of {@link io.jvmps.common.protocol.Routes}: the data routes' dispatcher
 * ({@link io.jvmps.server.api.DataPathResponder}) and its one handler per operation (dense init, push, pull; sparse
 * pull and push), the control routes' Spring controllers, and their frame plumbing.
 */
package io.jvmps.server.api;

/** In-memory storage of dense parameter slices: values, version, optimizer state, and version waiters. */
package io.jvmps.server.store;

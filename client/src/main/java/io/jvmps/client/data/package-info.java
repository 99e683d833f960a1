/**
 * The data plane: dense init, push and pull of whole parameters cut into shard slices, and sparse row
 * pull and push by id. Blocking calls with deadlines; errors are {@link io.jvmps.common.protocol.PsException}s.
 */
package io.jvmps.client.data;

/** Checkpoints of the dense parameters and their optimizer state: capture, atomic files, restore onto any server count. */
package io.jvmps.server.checkpoint;

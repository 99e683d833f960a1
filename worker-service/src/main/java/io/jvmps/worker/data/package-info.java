/** Training data: MNIST IDX loading, seeded synthetic sets, and the deterministic per-worker batch schedule. */
package io.jvmps.worker.data;

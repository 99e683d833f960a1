/**
 * Training data for any trainer: the {@link io.jvmps.client.dataset.Examples} interface, MNIST IDX files
 * (plain or .gz), CSV and NumPy files checked once and then read by position (a few bytes per row in
 * memory), seeded synthetic sets, and the deterministic per-worker batch schedule ({@link
 * io.jvmps.client.dataset.EpochBatches}).
 */
package io.jvmps.client.dataset;

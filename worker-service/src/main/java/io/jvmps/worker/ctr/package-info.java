/**
 * Click-through-rate training on sparse tables: a seeded synthetic click data set with a known oracle,
 * the embedding lookup (direct or through the embedding cache), the wide-and-deep model and its loop.
 */
package io.jvmps.worker.ctr;

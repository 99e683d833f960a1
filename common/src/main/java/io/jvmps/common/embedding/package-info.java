/** The worker-side embedding cache (MindSpore's {@code vocab_cache_size}): a bounded set of table rows. */
package io.jvmps.common.embedding;

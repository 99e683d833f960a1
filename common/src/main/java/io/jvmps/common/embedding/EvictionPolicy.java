package io.jvmps.common.embedding;

/** Which resident row an {@link EmbeddingCacheManager} gives up when it needs a slot. */
public enum EvictionPolicy {
    /** Least recently used. */
    LRU,
    /** Least frequently used (ties: least recently used). */
    LFU
}

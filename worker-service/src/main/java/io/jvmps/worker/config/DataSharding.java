package io.jvmps.worker.config;

/** How the training data is split among workers ({@code ps.worker.dataset.sharding}). */
public enum DataSharding {
    /** Each rank trains its own fixed shard of every epoch (rank r of W: every W-th example). */
    STATIC,
    /** The scheduler leases (epoch, partition) pairs to whichever worker asks next. */
    DYNAMIC
}

package io.jvmps.server.consistency;

import java.util.function.Function;

/** Consistency modes a server can run, chosen by {@code ps.consistency.mode}. */
public enum ConsistencyMode {
    /** Bulk-synchronous: step t of a slice is applied once, with the average of every worker's gradient. */
    SYNC(SyncPolicy::new),
    /** Asynchronous: every push is applied on arrival; pulls never wait for versions. */
    ASYNC(AsyncPolicy::new);

    private final Function<PolicyContext, ConsistencyPolicy> factory;

    ConsistencyMode(Function<PolicyContext, ConsistencyPolicy> factory) {
        this.factory = factory;
    }

    /**
     * @param context what every policy needs
     * @return a new policy of this mode
     */
    public ConsistencyPolicy create(PolicyContext context) {
        return factory.apply(context);
    }
}

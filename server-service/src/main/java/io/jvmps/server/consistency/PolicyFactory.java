package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;

/**
 * The one place that maps a {@link ConsistencyMode} to its {@link ConsistencyPolicy}. The switch is
 * exhaustive, so a new mode does not compile until it has a policy. Stateless.
 */
public final class PolicyFactory {
    private PolicyFactory() {
    }

    /**
     * @param mode    the configured mode
     * @param context what every policy needs
     * @return a new policy of that mode
     */
    public static ConsistencyPolicy create(ConsistencyMode mode, PolicyContext context) {
        return switch (mode) {
            case SYNC -> new SyncPolicy(context);
            case ASYNC -> new AsyncPolicy(context);
            case SSP -> new SspPolicy(context);
            case GEO -> new GeoPolicy(context);
        };
    }
}

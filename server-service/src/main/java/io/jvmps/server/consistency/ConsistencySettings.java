package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;

/**
 * The consistency mode and the parameters that mean something in it, as described to workers and on
 * the status page. Immutable. A parameter outside its mode is 0: {@code staleness} is only set in SSP,
 * {@code geoInterval} and {@code geoLearningRate} only in GEO.
 *
 * @param mode            the consistency mode
 * @param staleness       SSP bound s in steps
 * @param geoInterval     GEO k: local steps between two delta pushes
 * @param geoLearningRate learning rate of the workers' local plain SGD in GEO
 */
public record ConsistencySettings(ConsistencyMode mode, int staleness, int geoInterval, double geoLearningRate) {

    /**
     * @return settings of {@code mode}, keeping only the parameters of that mode (the others become 0)
     */
    public static ConsistencySettings of(ConsistencyMode mode, int staleness, int geoInterval,
                                         double geoLearningRate) {
        boolean ssp = mode == ConsistencyMode.SSP;
        boolean geo = mode == ConsistencyMode.GEO;
        return new ConsistencySettings(mode, ssp ? staleness : 0, geo ? geoInterval : 0, geo ? geoLearningRate : 0.0);
    }

    /** @return e.g. {@code SSP(staleness=3)}, {@code GEO(interval=10, lr=0.05)} or {@code SYNC} */
    public String describe() {
        return switch (mode) {
            case SSP -> "SSP(staleness=" + staleness + ")";
            case GEO -> "GEO(interval=" + geoInterval + ", lr=" + geoLearningRate + ")";
            default -> mode.name();
        };
    }
}

package io.jvmps.worker.model;

import java.util.List;

/** How a worker places its model's parameters, chosen by {@code ps.worker.placement}. */
public enum PlacementMode {
    /** Every parameter on the parameter servers (the default). */
    ALL_PS {
        @Override
        public Placement placement(List<String> localParams) {
            return Placement.allOnPs();
        }
    },
    /** The parameters named by {@code ps.worker.local-params} stay on the workers (AllReduce); the rest on the PS. */
    HYBRID {
        @Override
        public Placement placement(List<String> localParams) {
            return Placement.workerLocal(localParams.toArray(String[]::new));
        }
    };

    /**
     * @param localParams names of the worker-local parameters ({@code ps.worker.local-params})
     * @return the placement this mode stands for
     */
    public abstract Placement placement(List<String> localParams);
}

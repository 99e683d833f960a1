package io.jvmps.worker.placement;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.Placement;
import io.jvmps.worker.model.PlacementMode;

import java.util.Arrays;
import java.util.List;

/**
 * Turns {@code ps.worker.placement} and {@code ps.worker.local-params} into a {@link Placement}
 * checked against the configured model, so that a bad setting fails at start-up with one message
 * naming the property.
 */
public final class PlacementSettings {
    private PlacementSettings() {
    }

    /**
     * @return the placement the properties ask for
     * @throws PsException INVALID_ARGUMENT naming the property: HYBRID without local parameters, local
     *                     parameters with ALL_PS, or a name the model does not have
     */
    public static Placement resolve(WorkerProperties props, io.jvmps.worker.model.ModelProvider models) {
        PlacementMode mode = props.placement();
        List<String> local = props.localParams().stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (mode == PlacementMode.HYBRID && local.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.placement=HYBRID needs "
                    + "ps.worker.local-params: the names of the worker-local parameters");
        }
        if (mode == PlacementMode.ALL_PS && !local.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.local-params=" + local + " is set but "
                    + "ps.worker.placement is ALL_PS; accepted values of ps.worker.placement: "
                    + Arrays.toString(PlacementMode.values()));
        }
        try {
            return mode == PlacementMode.ALL_PS ? Placement.allOnPs() : models.check(mode.placement(local));
        } catch (PsException e) {
            throw new PsException(e.code(), "ps.worker.local-params: " + e.detail());
        }
    }
}

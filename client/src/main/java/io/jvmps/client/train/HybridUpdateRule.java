package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.JobLength;
import io.jvmps.optimizer.OptimizerType;

import java.util.Arrays;

/**
 * The update rule for worker-local parameters: the servers' own optimizer, built from their
 * {@link ServerDescription} with every hyper-parameter and the learning-rate schedule they run, by the
 * same implementation the servers use, so a parameter moves the same whether it lives on the PS or on
 * the workers.
 */
public final class HybridUpdateRule {
    private HybridUpdateRule() {
    }

    /**
     * @param servers the servers' description
     * @param steps   the steps this worker runs over the job: one local update each, which sizes a cosine schedule
     *                the servers take from the job's length ({@code ps.optimizer.total-steps} unset)
     * @return a fresh optimizer (no state) for the local parameters
     * @throws PsException INVALID_ARGUMENT when the servers name an optimizer this worker does not know
     */
    public static LocalOptimizer forServers(ServerDescription servers, long steps) {
        OptimizerType type = Arrays.stream(OptimizerType.values())
                .filter(t -> t.name().equalsIgnoreCase(servers.optimizer()))
                .findFirst()
                .orElseThrow(() -> new PsException(ErrorCode.INVALID_ARGUMENT, "the servers run optimizer "
                        + servers.optimizer() + ", which this worker does not know (accepted: "
                        + Arrays.toString(OptimizerType.values()) + "); run workers and servers of the same version"));
        OptimizerSettings settings = servers.optimizerSettings();
        JobLength length = new JobLength();
        length.tell(steps);
        return new LocalOptimizer(type, settings.withSchedule(settings.schedule().withJobLength(length)));
    }
}

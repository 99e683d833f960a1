package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
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
     * @return a fresh optimizer (no state) for the local parameters
     * @throws PsException INVALID_ARGUMENT when the servers name an optimizer this worker does not know
     */
    public static LocalOptimizer forServers(ServerDescription servers) {
        OptimizerType type = Arrays.stream(OptimizerType.values())
                .filter(t -> t.name().equalsIgnoreCase(servers.optimizer()))
                .findFirst()
                .orElseThrow(() -> new PsException(ErrorCode.INVALID_ARGUMENT, "the servers run optimizer "
                        + servers.optimizer() + ", which this worker does not know (accepted: "
                        + Arrays.toString(OptimizerType.values()) + "); run workers and servers of the same version"));
        return new LocalOptimizer(type, servers.optimizerSettings());
    }
}

package io.jvmps.worker.placement;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.worker.model.baseline.LocalOptimizer;
import io.jvmps.worker.model.baseline.LocalOptimizerType;

import java.util.Arrays;

/**
 * The update rule for worker-local parameters: the servers' own optimizer and learning rate (from
 * their {@link ServerDescription}), so a parameter moves the same whether it lives on the PS or on
 * the workers. SGD matches the servers exactly; ADAM uses {@code model.baseline.AdamOptimizer}
 * (same betas; epsilon added to the bias-corrected root instead of the raw one, a difference of
 * order 1e-8). Learning-rate schedules on the servers are not mirrored.
 */
public final class HybridUpdateRule {
    private HybridUpdateRule() {
    }

    /**
     * @param servers the servers' description
     * @return a fresh optimizer for the local parameters
     * @throws PsException INVALID_ARGUMENT for server optimizers other than SGD and ADAM
     */
    public static LocalOptimizer forServers(ServerDescription servers) {
        LocalOptimizerType type = Arrays.stream(LocalOptimizerType.values())
                .filter(t -> t.name().equalsIgnoreCase(servers.optimizer()))
                .findFirst()
                .orElseThrow(() -> new PsException(ErrorCode.INVALID_ARGUMENT, "hybrid placement "
                        + "(ps.worker.placement=HYBRID) supports servers with optimizer SGD and ADAM only; the servers use "
                        + servers.optimizer() + " (set ps.optimizer.type=SGD or ADAM on the servers, or use ALL_PS)"));
        return type.create(servers.learningRate());
    }
}

package io.jvmps.worker.placement;

import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.client.train.HybridUpdateRule;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.worker.model.TrainableModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * Builds the {@link LocalParameterSync} a worker's model needs: {@link LocalParameterSync#NONE} when
 * every parameter is on the PS, otherwise an {@link AllReduceParameterSync} over the job's ring of workers
 * ({@link io.jvmps.client.PsJob#allReduce}) with the servers' update rule. Stateless.
 */
public class LocalSyncFactory {
    private static final Logger log = LoggerFactory.getLogger(LocalSyncFactory.class);

    /**
     * @param model   the model, placed, its local parameters holding their initial values
     * @param servers the servers' description (mode, optimizer, learning rate)
     * @param ring    the job's ring AllReduce (asked only when the model has worker-local parameters; it waits
     *                until every worker has registered)
     * @param workers workers in the job
     * @param steps   steps this worker runs over the job (sizes a cosine schedule the servers take from the job)
     * @return the sync to run after every step
     * @throws PsException INVALID_ARGUMENT for GEO mode or an optimizer hybrid mode cannot mirror
     */
    public LocalParameterSync create(TrainableModel model, ServerDescription servers, Supplier<RingAllReduce> ring,
                                     int workers, long steps) {
        if (model.localParams().isEmpty()) {
            return LocalParameterSync.NONE;
        }
        if (servers.mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "hybrid placement (ps.worker.placement=HYBRID) needs "
                    + "servers in SYNC, ASYNC or SSP mode; they run GEO");
        }
        var optimizer = HybridUpdateRule.forServers(servers, steps);
        RingAllReduce allReduce = ring.get();
        log.info("Worker-local parameters {} are averaged by a ring AllReduce over {} workers and updated with the "
                + "servers' {}", model.localParams(), workers, optimizer.describe());
        return new AllReduceParameterSync(model, optimizer, allReduce);
    }
}

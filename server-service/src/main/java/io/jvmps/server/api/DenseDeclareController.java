package io.jvmps.server.api;

import io.jvmps.common.protocol.DenseDeclaration;
import io.jvmps.common.protocol.DenseDeclared;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.server.checkpoint.CheckpointRestorer;
import io.jvmps.server.checkpoint.Recovery;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.config.JobSchedule;
import io.jvmps.server.store.DeclaredModel;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;

/**
 * Route {@value Routes#DENSE_DECLARE}: records the workers' dense model and the job's length (which may size the
 * learning-rate schedule) and, when this server restores a checkpoint, creates its slices from it and answers the
 * step to resume from.
 */
@Controller
public class DenseDeclareController {
    private final DeclaredModel model;
    private final CheckpointRestorer restorer;
    private final ServerIdentity identity;
    private final Recovery recovery;
    private final JobSchedule schedule;
    private final io.jvmps.server.checkpoint.SliceLessCheck sliceLess;
    private final io.jvmps.server.sparse.SparseTables tables;

    /** Wires the controller. */
    public DenseDeclareController(DeclaredModel model, CheckpointRestorer restorer, ServerIdentity identity,
                                  Recovery recovery, JobSchedule schedule,
                                  io.jvmps.server.checkpoint.SliceLessCheck sliceLess,
                                  io.jvmps.server.sparse.SparseTables tables) {
        this.sliceLess = sliceLess;
        this.tables = tables;
        this.schedule = schedule;
        this.model = model;
        this.restorer = restorer;
        this.identity = identity;
        this.recovery = recovery;
    }

    /** @return the rank, the step the slices are at, and what was restored */
    @MessageMapping(Routes.DENSE_DECLARE)
    public Mono<DenseDeclared> declare(DenseDeclaration declaration) {
        return Mono.fromCallable(() -> {
            int rank = identity.rank();
            if (rank < 0) {
                throw new PsException(ErrorCode.NOT_READY, "this server has no rank yet; the dense model can be "
                        + "declared once the scheduler assigned one");
            }
            sliceLess.require(ShardMap.compute(declaration.params(), model.servers()), rank, !tables.all().isEmpty());
            ShardMap map = model.declare(declaration.params());
            schedule.told(declaration.updates());
            DenseDeclared answer = restorer.restoreInto(map, rank);
            recovery.declared(declaration.servers());
            return answer;
        });
    }
}

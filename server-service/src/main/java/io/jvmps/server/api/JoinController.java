package io.jvmps.server.api;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.SenderCheck;
import io.jvmps.server.store.DeclaredModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;

/** Route {@value Routes#JOIN}: a worker asks to be expected from a step (GEO: a round) on. */
@Controller
public class JoinController {
    private static final Logger log = LoggerFactory.getLogger(JoinController.class);

    private final ConsistencyPolicy policy;
    private final ServerIdentity identity;
    private final DeclaredModel model;
    private final int workerCapacity;

    /** Wires the controller. */
    public JoinController(ConsistencyPolicy policy, ServerIdentity identity, DeclaredModel model,
                          io.jvmps.common.cluster.ClusterProperties cluster) {
        this.workerCapacity = cluster.workerCapacity();
        this.policy = policy;
        this.identity = identity;
        this.model = model;
    }

    /** @return whether the worker is expected from the requested step on, and this server's newest version */
    @MessageMapping(Routes.JOIN)
    public Mono<JoinAnswer> join(JoinRequest request) {
        return Mono.fromCallable(() -> {
            if (request == null || request.nodeId() == null || request.nodeId().isBlank()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "a join request needs rank, nodeId and step");
            }
            if (holdsNoSliceOfTheModel()) {
                // a model smaller than the server set (a single bias on two servers): no step ever waits here
                SenderCheck.check(request.rank(), workerCapacity);
                return new JoinAnswer(identity.rank(), true, request.step());
            }
            JoinAnswer answer = policy.join(request, identity.rank());
            if (answer.accepted() && request.step() > 0) {
                log.info("Worker rank {} (node {}) joined at {} {}", request.rank(), request.nodeId(),
                        policy.mode() == ConsistencyMode.GEO ? "round" : "step", request.step());
            }
            return answer;
        });
    }

    /**
     * @return whether the declared dense model gives this server no slice: no push or pull of the job ever reaches it,
     *         so no step or clock waits here, in any mode
     */
    private boolean holdsNoSliceOfTheModel() {
        ShardMap map = model.shardMap();
        return map != null && identity.rank() >= 0 && map.slicesOf(identity.rank()).isEmpty();
    }
}

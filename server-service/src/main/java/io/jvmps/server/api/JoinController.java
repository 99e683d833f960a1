package io.jvmps.server.api;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.ConsistencyPolicy;
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

    /** Wires the controller. */
    public JoinController(ConsistencyPolicy policy, ServerIdentity identity) {
        this.policy = policy;
        this.identity = identity;
    }

    /** @return whether the worker is expected from the requested step on, and this server's newest version */
    @MessageMapping(Routes.JOIN)
    public Mono<JoinAnswer> join(JoinRequest request) {
        return Mono.fromCallable(() -> {
            if (request == null || request.nodeId() == null || request.nodeId().isBlank()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "a join request needs rank, nodeId and step");
            }
            JoinAnswer answer = policy.join(request, identity.rank());
            if (answer.accepted() && request.step() > 0) {
                log.info("Worker rank {} (node {}) joined at {} {}", request.rank(), request.nodeId(),
                        policy.mode() == ConsistencyMode.GEO ? "round" : "step", request.step());
            }
            return answer;
        });
    }
}

package io.jvmps.server.api;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.Routes;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.config.OptimizerProperties;
import io.jvmps.server.consistency.ConsistencySettings;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;

/**
 * Route {@value Routes#SERVER_DESCRIBE} (request-response): the training semantics workers must
 * match (consistency mode and its parameters, optimizer with every hyper-parameter and its schedule), in the connection's data MIME type. A
 * parameter of another mode is sent as 0 (staleness only in SSP, the GEO interval and learning rate
 * only in GEO).
 */
@Controller
public class DescribeRSocketController {
    private final ServerIdentity identity;
    private final ClusterProperties cluster;
    private final ConsistencySettings consistency;
    private final OptimizerProperties optimizer;

    /** Wires the controller. */
    public DescribeRSocketController(ServerIdentity identity, ClusterProperties cluster,
                                     ConsistencySettings consistency, OptimizerProperties optimizer) {
        this.identity = identity;
        this.cluster = cluster;
        this.consistency = consistency;
        this.optimizer = optimizer;
    }

    /** @return what this server does with pushes */
    @MessageMapping(Routes.SERVER_DESCRIBE)
    public ServerDescription describe() {
        return new ServerDescription(identity.rank(), cluster.workerNum(), consistency.mode(),
                consistency.staleness(), consistency.geoInterval(), consistency.geoLearningRate(),
                optimizer.type().name(), optimizer.settings());
    }
}

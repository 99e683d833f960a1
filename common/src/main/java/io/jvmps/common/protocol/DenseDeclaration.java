package io.jvmps.common.protocol;

import io.jvmps.common.sharding.ParamSpec;

import java.util.List;

/**
 * A worker's declaration of the dense model before it initialises or pulls anything: the
 * PS-managed parameters in model order. Each server computes the same {@code ShardMap} from it (with
 * its own server count), which lets it write checkpoints by parameter position and restore them
 * under any server count. Every worker of a job must declare the same list. Immutable.
 *
 * @param params  the PS-managed dense parameters, in model order, at least one
 * @param servers the server set the worker connected to: node ids by rank, comma-separated (a
 *                server compares it with later {@link RecoverRequest}s to tell a replaced server)
 */
public record DenseDeclaration(List<ParamSpec> params, String servers) {
    /** Copies the list. */
    public DenseDeclaration {
        params = params == null ? List.of() : List.copyOf(params);
        servers = servers == null ? "" : servers;
    }
}

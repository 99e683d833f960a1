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
 * @param updates the job's length in updates of one slice as this worker counts it (SYNC: its steps; ASYNC and
 *                SSP: every worker's pushes), which sizes a cosine schedule without {@code total-steps}; 0 when
 *                the worker does not know it (absent in JSON: 0)
 */
public record DenseDeclaration(List<ParamSpec> params, String servers, Long updates) {
    /** Copies the list. */
    public DenseDeclaration {
        params = params == null ? List.of() : List.copyOf(params);
        servers = servers == null ? "" : servers;
        updates = updates == null ? 0L : Math.max(0L, updates);
    }

    /** A declaration that does not tell the job's length. */
    public DenseDeclaration(List<ParamSpec> params, String servers) {
        this(params, servers, 0L);
    }
}

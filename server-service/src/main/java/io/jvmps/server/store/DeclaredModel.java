package io.jvmps.server.store;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The dense model the workers declared, and the shard map this server computes from it with its own
 * server count: the same map every worker computes. Thread-safe; the first declaration wins and
 * later ones must match it.
 */
public final class DeclaredModel {
    private final int servers;
    private final AtomicReference<ShardMap> map = new AtomicReference<>();

    /** @param servers number of servers of the job ({@code ps.cluster.server-num}) */
    public DeclaredModel(int servers) {
        this.servers = servers;
    }

    /**
     * @param params the PS-managed parameters in model order
     * @return the shard map
     * @throws PsException {@link ErrorCode#INVALID_ARGUMENT} for an empty list or repeated names, or a
     *                     list other than the one declared first
     */
    public ShardMap declare(List<ParamSpec> params) {
        if (params.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT,
                    "field params must list at least one parameter: a dense model declares one or more");
        }
        Set<String> names = new HashSet<>();
        for (ParamSpec p : params) {
            if (!names.add(p.name())) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "parameter '" + p.name() + "' is declared twice");
            }
        }
        ShardMap fresh = ShardMap.compute(params, servers);
        ShardMap current = map.compareAndExchange(null, fresh);
        if (current == null) {
            return fresh;
        }
        if (!current.params().equals(params)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "this job's dense model is " + current.params()
                    + "; a worker declared " + params + " (every worker must run the same model)");
        }
        return current;
    }

    /** @return the job's server count the map is computed for */
    public int servers() {
        return servers;
    }

    /** @return the shard map, or null before the first declaration */
    public ShardMap shardMap() {
        return map.get();
    }
}

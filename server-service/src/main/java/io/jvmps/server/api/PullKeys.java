package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseStore;

import java.util.HashSet;
import java.util.Set;

/**
 * Checks the keys of a pull before anything waits for them: each key once (a repeated key would be
 * answered as many times), and each one a slice this server holds or, once the model is declared, one
 * the shard map gives this server (which the workers will initialise). A pull may wait only for those,
 * so a client cannot make the server keep a waiting entry for a key that never comes. Stateless.
 */
final class PullKeys {
    private PullKeys() {
    }

    /**
     * @throws PsException STATE_LOST for a slice this server would wait for but lost (see LostState);
     *                     INVALID_ARGUMENT for a repeated key, UNKNOWN_KEY for a key this server neither
     *                     holds nor owns in the declared model
     */
    static void requireKnown(long[] keys, DenseStore store, DeclaredModel model, ServerIdentity identity,
                             io.jvmps.server.checkpoint.LostState lostState) {
        Set<Long> seen = new HashSet<>(keys.length * 2);
        ShardMap map = model.shardMap();
        for (long key : keys) {
            if (!seen.add(key)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "the pull names slice " + SliceKey.describe(key)
                        + " twice; name each slice once");
            }
            if (store.get(key) != null) {
                continue;
            }
            if (map == null) {
                throw new PsException(ErrorCode.UNKNOWN_KEY, "slice " + SliceKey.describe(key) + " (key " + key
                        + ") is not held by this server and no model is declared here; declare the model "
                        + "(ps.v1.dense.declare) before pulling slices that are not initialised yet");
            }
            Slice slice = map.slice(key);
            if (slice == null || !identity.assigned() || slice.server() != identity.rank()) {
                throw new PsException(ErrorCode.UNKNOWN_KEY, "slice " + SliceKey.describe(key) + " (key " + key
                        + ") is not held by this server: " + (slice == null ? "it is not a slice of the declared model"
                        : "it belongs to server " + slice.server()));
            }
            lostState.requireNotLost("a pull waiting for slice " + SliceKey.describe(key) + " to be initialised");
        }
    }
}

package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-server model declared and initialised at zeros, for driving a checkpointer and a policy in tests.
 *
 * @param store the slices, every one initialised
 * @param model the declaration
 * @param map   its shard map (one server)
 */
record ZeroModel(DenseStore store, DeclaredModel model, ShardMap map) {
    /** @return {@code params} declared on one server, every slice at zeros */
    static ZeroModel of(List<ParamSpec> params) {
        DenseStore store = new DenseStore();
        DeclaredModel model = new DeclaredModel(1);
        ShardMap map = model.declare(params);
        Map<Long, INDArray> init = new HashMap<>();
        for (Slice s : map.slices()) {
            init.put(s.key(), Nd4j.zeros(DataType.FLOAT, s.length()));
        }
        store.initialize(init);
        return new ZeroModel(store, model, map);
    }
}

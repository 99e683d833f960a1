package io.jvmps.worker.train;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.client.data.DenseClient;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.MonotonicClock;
import java.util.Map;

/**
 * Puts the initial PS-managed parameters on the servers: worker rank 0 pushes the model's seeded
 * initial values; the other workers wait (polling, with the server-wait deadline) until those are
 * there. Every worker sets its worker-local parameters to the same seeded initial values.
 */
class ParameterInitializer {
    private static final Logger log = LoggerFactory.getLogger(ParameterInitializer.class);

    private final DenseClient client;
    private final TrainableModel model;
    private final WorkerProperties props;
    private final MonotonicClock clock;

    ParameterInitializer(DenseClient client, TrainableModel model, WorkerProperties props, MonotonicClock clock) {
        this.client = client;
        this.model = model;
        this.props = props;
        this.clock = clock;
    }

    /**
     * Sets the worker-local parameters, declares the model, then seeds or awaits the initial values.
     *
     * @param jobUpdates the job's updates per slice, told to the servers (it sizes their cosine schedule)
     * @return the step the servers' parameters are at (non-zero when they restored a checkpoint)
     */
    long initialize(int rank, long jobUpdates) {
        Map<String, INDArray> initial = model.initialParams(props.training().seed());
        for (ParamSpec local : model.localParams()) {
            model.setParam(local.name(), initial.get(local.name()));
        }
        long step = io.jvmps.client.control.ControlClient.alongside(client).declareDense(client.shardMap().params(),
                jobUpdates);
        if (step > 0) {
            log.info("The servers restored a checkpoint at step {}: resuming the schedule there", step);
        }
        INDArray[] values = initialValues(model, props.training().seed(), client.shardMap());
        io.jvmps.client.data.DenseSeeding.seedOrAwait(client, values, rank, props.servers().waitTimeout(), clock);
        return step;
    }

    /** @return the seeded initial values of the PS-managed parameters, in shard-map order */
    static INDArray[] initialValues(TrainableModel model, long seed, io.jvmps.common.sharding.ShardMap map) {
        Map<String, INDArray> initial = model.initialParams(seed);
        return map.params().stream().map(p -> initial.get(p.name())).toArray(INDArray[]::new);
    }
}

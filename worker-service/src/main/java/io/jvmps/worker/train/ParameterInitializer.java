package io.jvmps.worker.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.client.PsClient;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Puts the initial PS-managed parameters on the servers: worker rank 0 pushes the model's seeded
 * initial values; the other workers wait (polling, with the server-wait deadline) until those are
 * there. Every worker sets its worker-local parameters to the same seeded initial values.
 */
class ParameterInitializer {
    private static final Logger log = LoggerFactory.getLogger(ParameterInitializer.class);

    private final PsClient client;
    private final TrainableModel model;
    private final WorkerProperties props;
    private final Clock clock;

    ParameterInitializer(PsClient client, TrainableModel model, WorkerProperties props, Clock clock) {
        this.client = client;
        this.model = model;
        this.props = props;
        this.clock = clock;
    }

    /**
     * Sets the worker-local parameters, declares the model, then seeds or awaits the initial values.
     *
     * @return the step the servers' parameters are at (non-zero when they restored a checkpoint)
     */
    long initialize(int rank) {
        Map<String, INDArray> initial = model.initialParams(props.getSeed());
        for (ParamSpec local : model.localParams()) {
            model.setParam(local.name(), initial.get(local.name()));
        }
        long step = client.declare();
        if (step > 0) {
            log.info("The servers restored a checkpoint at step {}: resuming the schedule there", step);
        }
        INDArray[] values = initialValues(model, props.getSeed(), client.shardMap());
        seedOrAwait(client, values, rank, props.getServerWaitTimeout(), clock);
        return step;
    }

    /** @return the seeded initial values of the PS-managed parameters, in shard-map order */
    static INDArray[] initialValues(TrainableModel model, long seed, io.jvmps.common.sharding.ShardMap map) {
        Map<String, INDArray> initial = model.initialParams(seed);
        return map.params().stream().map(p -> initial.get(p.name())).toArray(INDArray[]::new);
    }

    /**
     * Rank 0 initialises the servers' dense parameters with {@code values}; every other rank polls (every
     * 500 ms, until {@code timeout}) until they are there.
     *
     * @throws PsException TIMEOUT if rank 0 did not initialise them in time
     */
    static void seedOrAwait(PsClient client, INDArray[] values, int rank, java.time.Duration timeout, Clock clock) {
        List<ParamSpec> specs = client.shardMap().params();
        if (rank == 0) {
            client.init(values);
            log.info("Initialised {} parameters on {} servers", specs.size(), client.shardMap().servers());
            return;
        }
        INDArray[] probe = specs.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape(), 'c')).toArray(INDArray[]::new);
        Instant deadline = clock.instant().plus(timeout);
        while (true) {
            try {
                client.pull(0, probe);
                return;
            } catch (PsException e) {
                boolean notYet = e.code() == ErrorCode.UNKNOWN_KEY || e.code() == ErrorCode.NOT_INITIALIZED;
                if (!notYet || clock.instant().isAfter(deadline)) {
                    throw notYet ? new PsException(ErrorCode.TIMEOUT, "parameters were not initialised by worker 0 within "
                            + timeout + ": " + e.detail()) : e;
                }
                log.info("parameters not initialised yet, waiting for worker 0...");
                LockSupport.parkNanos(500_000_000L);
            }
        }
    }
}

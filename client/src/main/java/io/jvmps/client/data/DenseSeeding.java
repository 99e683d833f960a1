package io.jvmps.client.data;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.List;

/**
 * Puts the initial dense values on the servers once per job: worker rank 0 sends them (the servers keep the
 * first initialisation and ignore later ones, so a restarted rank 0 changes nothing); every other rank
 * waits until they are there. Stateless.
 */
public final class DenseSeeding {
    private static final Logger log = LoggerFactory.getLogger(DenseSeeding.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private DenseSeeding() {
    }

    /**
     * Rank 0 initialises the servers' dense parameters with {@code values}; every other rank polls (every
     * 500 ms, until {@code timeout}) until they are there.
     *
     * @param values initial values in the client's shard-map order (only rank 0's are sent)
     * @param clock  measures the deadline
     * @throws PsException TIMEOUT naming the wait if rank 0 did not initialise them in time; any other
     *                     server error at once
     */
    public static void seedOrAwait(DenseClient client, INDArray[] values, int rank, Duration timeout,
                                   MonotonicClock clock) {
        List<ParamSpec> specs = client.shardMap().params();
        if (rank == 0) {
            client.init(values);
            log.info("Initialised {} parameters on {} servers", specs.size(), client.shardMap().servers());
            return;
        }
        INDArray[] probe = specs.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape(), 'c')).toArray(INDArray[]::new);
        Deadline deadline = Deadline.after(timeout, clock);
        while (true) {
            try {
                client.pull(0, probe);
                return;
            } catch (PsException e) {
                boolean notYet = e.code() == ErrorCode.UNKNOWN_KEY || e.code() == ErrorCode.NOT_INITIALIZED;
                if (!notYet || deadline.passed()) {
                    throw notYet ? new PsException(ErrorCode.TIMEOUT, "parameters were not initialised by worker 0 within "
                            + timeout + ": " + e.detail()) : e;
                }
                log.info("parameters not initialised yet, waiting for worker 0...");
                deadline.pause(POLL);
            }
        }
    }
}

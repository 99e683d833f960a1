package io.jvmps.server.config;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.checkpoint.Checkpoint;
import io.jvmps.server.checkpoint.CheckpointImage;
import io.jvmps.server.checkpoint.CheckpointRestorer;
import io.jvmps.server.checkpoint.CheckpointStore;
import io.jvmps.server.checkpoint.Recovery;
import io.jvmps.server.checkpoint.Checkpointer;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.sparse.SparseRows;
import io.jvmps.server.sparse.SparseTables;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;

/** The declared dense model, checkpoint writing ({@code ps.checkpoint.dir} set) and restore at start-up. */
@Configuration(proxyBeanMethods = false)
public class CheckpointConfiguration {
    private static final Logger log = LoggerFactory.getLogger(CheckpointConfiguration.class);

    /** Refuses sparse tables on a server the dense model gives no slice, when checkpoints are on. */
    @Bean
    io.jvmps.server.checkpoint.SliceLessCheck sliceLessCheck(CheckpointProperties props) {
        return new io.jvmps.server.checkpoint.SliceLessCheck(props.enabled());
    }

    @Bean
    DeclaredModel declaredModel(ClusterProperties cluster) {
        return new DeclaredModel(cluster.serverNum());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnExpression("!'${ps.checkpoint.dir:}'.isBlank()")
    Checkpointer checkpointer(CheckpointProperties props, DenseStore store, DeclaredModel model,
                              ServerIdentity identity, Optimizer optimizer, OptimizerProperties optimizerProps,
                              Clock clock, MeterRegistry registry) {
        Checkpointer checkpointer = new Checkpointer(new CheckpointStore(Path.of(props.dir()), clock),
                new Checkpointer.Schedule(props.everySteps(), props.interval(), props.keep()), store, model, identity,
                optimizer, optimizerProps.type().name(), clock);
        Gauge.builder("ps.server.checkpoint.step", checkpointer, Checkpointer::lastStep)
                .description("step of the newest checkpoint this server wrote or restored (-1: none)")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("ps.server.checkpoint.failures", checkpointer,
                        Checkpointer::failures)
                .description("checkpoint parts this server could not write (a full disk, say); training went on")
                .register(registry);
        Gauge.builder("ps.server.checkpoint.age", checkpointer, c -> ageSeconds(c.lastWritten(), clock))
                .description("seconds since this server last finished writing a checkpoint (-1: none yet)")
                .baseUnit("seconds").register(registry);
        log.info("Checkpoints to {}: every {} steps, every {}, keeping {}", props.dir(), props.everySteps(),
                props.interval(), props.keep());
        return checkpointer;
    }

    @Bean
    CheckpointRestorer checkpointRestorer(CheckpointProperties props, DenseStore store, Optimizer optimizer,
                                          OptimizerProperties optimizerProps, Optional<Checkpointer> checkpointer,
                                          Clock clock, io.jvmps.server.consistency.PushLedger ledger,
                                          SparseTables sparse, io.jvmps.server.consistency.ConsistencyPolicy policy) {
        checkpointer.ifPresent(c -> c.recordLedger(ledger));
        checkpointer.ifPresent(c -> c.recordClocks(policy::workerClocks));
        checkpointer.ifPresent(c -> c.recordSparse(sparse));
        if (!props.enabled() || props.restore() == CheckpointProperties.Restore.NONE) {
            return new CheckpointRestorer(null, null, store, null);
        }
        try {
            CheckpointStore files = new CheckpointStore(Path.of(props.dir()), clock);
            // sparse rows are read at the first table declaration, when the server knows which ids it owns
            Optional<Checkpoint> found = files.latestComplete(CheckpointStore.NO_ROWS);
            if (found.isEmpty()) {
                log.info("No complete checkpoint in {}: starting fresh", props.dir());
                return new CheckpointRestorer(null, null, store, checkpointer.orElse(null));
            }
            Checkpoint cp = found.get();
            int slots = optimizer.newState(1).slots();
            if (!cp.optimizer().equals(optimizerProps.type().name()) || cp.stateSlots() != slots) {
                throw new IllegalStateException("ps.checkpoint.dir " + props.dir() + " holds a checkpoint at step "
                        + cp.step() + " written with optimizer " + cp.optimizer() + " but this server runs "
                        + optimizerProps.type() + "; use the same ps.optimizer.type, another ps.checkpoint.dir, or "
                        + "ps.checkpoint.restore=NONE");
            }
            CheckpointImage image = cp.image();
            log.info("Will restore the checkpoint at step {} from {} ({} parts) when the workers declare the model",
                    cp.step(), cp.dir(), cp.servers());
            return new CheckpointRestorer(image, cp.dir(), store, checkpointer.orElse(null), ledger, sparse,
                    owned -> ownedRows(files, cp.step(), owned), policy);
        } catch (IOException e) {
            throw new UncheckedIOException("ps.checkpoint.dir " + props.dir() + ": cannot read checkpoints: "
                    + e.getMessage(), e);
        }
    }

    @Bean
    io.jvmps.server.checkpoint.LostState lostState(ServerIdentity identity, CheckpointRestorer restorer) {
        return new io.jvmps.server.checkpoint.LostState(identity, restorer);
    }

    @Bean
    Recovery recovery(Optional<Checkpointer> checkpointer, DenseStore store, DeclaredModel model,
                      io.jvmps.server.consistency.ConsistencyPolicy policy, ServerIdentity identity,
                      CheckpointRestorer restorer, io.jvmps.server.consistency.PushLedger ledger,
                      SparseTables sparse) {
        return new Recovery(checkpointer.orElse(null), store, model, policy, identity,
                restorer.step() > 0 ? restorer.step() : -1, ledger, sparse);
    }

    private static List<SparseRows> ownedRows(CheckpointStore files, long step, LongPredicate owned) {
        try {
            return files.load(step, owned).image().sparse();
        } catch (IOException e) {
            throw new PsException(ErrorCode.INTERNAL, "cannot read the sparse rows of checkpoint step " + step
                    + " from " + files.root() + ": " + e.getMessage());
        }
    }

    private static double ageSeconds(Instant last, Clock clock) {
        return last == null ? -1 : Duration.between(last, clock.instant()).toMillis() / 1000.0;
    }
}

package io.jvmps.server.config;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.server.api.ChannelReader;
import io.jvmps.server.api.Frames;
import io.jvmps.server.api.SliceStreamer;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.ConsistencySettings;
import io.jvmps.server.consistency.PolicyContext;
import io.jvmps.server.consistency.SliceUpdateListener;
import io.jvmps.server.checkpoint.Checkpointer;
import io.jvmps.server.consistency.PolicyFactory;
import io.jvmps.server.monitor.ConsistencyMeters;
import io.jvmps.server.monitor.ServerMetrics;
import io.jvmps.server.monitor.StatusReporter;
import io.jvmps.server.monitor.StoreHealthIndicator;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.MemoryBudget;
import io.jvmps.server.sparse.SparseMeters;
import io.jvmps.server.sparse.SparseTables;
import io.jvmps.server.store.DenseStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.time.Clock;

/** Wires the store, optimizer, consistency policy, frame plumbing and monitoring from the {@code ps.*} properties. */
@Configuration(proxyBeanMethods = false)
public class ServerConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ServerConfiguration.class);

    /** @return the system clock (tests may replace it) */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The store; creating it also loads nd4j's native backend, so the first request does not pay for it. */
    @Bean
    DenseStore denseStore(PsServerProperties server, ConsistencySettings consistency) {
        log.info("nd4j backend {} ready", Nd4j.getBackend().getClass().getSimpleName());
        server.pushApply().requireSupports(consistency.mode()); // before a pool is made for a mode that cannot use it
        return new DenseStore(server.pushApply().gradientBuffers(), server.maxDenseBytes());
    }

    /** How a dense push reaches the policy ({@code ps.server.push-apply}); a pairing the policy cannot take fails here. */
    @Bean
    io.jvmps.server.api.PushApplication pushApplication(PsServerProperties server, ConsistencyPolicy policy,
                                                        DenseStore store, io.jvmps.server.consistency.PushLedger ledger,
                                                        io.jvmps.server.api.ChannelReader reader,
                                                        @org.springframework.beans.factory.annotation.Qualifier("pushApplier")
                                                        java.util.concurrent.Executor applier,
                                                        io.jvmps.server.api.PushChecks checks) {
        return io.jvmps.server.api.PushApplication.create(server.pushApply(), policy, store, ledger, reader, applier,
                checks);
    }

    /** The dense update rule; a slice of several MiB is updated on {@code ps.optimizer.threads} threads. */
    @Bean(destroyMethod = "close")
    Optimizer optimizer(OptimizerProperties props, JobSchedule job) {
        return new io.jvmps.optimizer.ParallelOptimizer(props.type().create(props.settings(job.length())),
                props.resolvedThreads());
    }

    /** Where the job tells its length, which sizes a COSINE schedule without {@code ps.optimizer.total-steps}. */
    @Bean
    JobSchedule jobSchedule(OptimizerProperties props) {
        return new JobSchedule(props);
    }

    /**
     * Where {@code ps.server.push-apply=PER_SLICE} applies slices, off the event loops: one thread per core (the
     * slices of one push go one after another; several pushes in parallel).
     */
    @Bean(destroyMethod = "shutdownNow")
    java.util.concurrent.ExecutorService pushApplier() {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        return java.util.concurrent.Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
            Thread t = new Thread(r, "push-apply-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Bean
    SparseTables sparseTables(OptimizerProperties props, JobSchedule job, SparseProperties sparse,
                              MeterRegistry registry) {
        SparseTables tables = new SparseTables(props.type(), type -> type.create(props.settings(job.length())),
                new MemoryBudget(sparse.resolvedMaxBytes()));
        SparseMeters.register(registry, tables);
        return tables;
    }

    @Bean
    ConsistencySettings consistencySettings(ConsistencyProperties consistency) {
        return consistency.settings();
    }

    @Bean
    io.jvmps.server.consistency.LiveWorkers liveWorkers(ClusterProperties cluster) {
        return new io.jvmps.server.consistency.LiveWorkers(cluster.workerCapacity(), cluster.workerNum());
    }

    @Bean
    io.jvmps.server.consistency.PushLedger pushLedger(MeterRegistry registry) {
        io.jvmps.server.consistency.PushLedger ledger = new io.jvmps.server.consistency.PushLedger();
        io.micrometer.core.instrument.FunctionCounter.builder("ps.server.duplicate.pushes", ledger,
                        io.jvmps.server.consistency.PushLedger::duplicates)
                .description("pushes that repeated the sender's last tag: answered with the original acknowledgement, "
                        + "not applied again").register(registry);
        return ledger;
    }

    @Bean
    ConsistencyPolicy consistencyPolicy(ConsistencySettings consistency, DenseStore store, Optimizer optimizer,
                                        ClusterProperties cluster, PsServerProperties server,
                                        java.util.Optional<Checkpointer> checkpointer,
                                        io.jvmps.server.consistency.LiveWorkers liveWorkers) {
        SliceUpdateListener listener = checkpointer.<SliceUpdateListener>map(c -> c).orElse(SliceUpdateListener.NONE);
        ConsistencyPolicy policy = PolicyFactory.create(consistency.mode(), new PolicyContext(store, optimizer,
                cluster.workerCapacity(), server.pullTimeout(), consistency.staleness(), listener, liveWorkers));
        log.info("Parameter server: consistency {} over {} worker(s){}, optimizer {}, pull timeout {}, push-apply {}",
                consistency.describe(), cluster.workerNum(), cluster.workerCapacity() > cluster.workerNum()
                        ? " (up to " + cluster.workerCapacity() + " with scale-out)" : "",
                optimizer.describe(), server.pullTimeout(), server.pushApply());
        return policy;
    }

    @Bean
    ServerIdentity serverIdentity(io.jvmps.common.node.SchedulerAddress scheduler, PsServerProperties server) {
        return scheduler.enabled() ? ServerIdentity.unregistered() : ServerIdentity.standalone(server.rank());
    }

    @Bean
    ServerMetrics serverMetrics(MeterRegistry registry, ConsistencyPolicy policy, DenseStore store) {
        ConsistencyMeters.register(registry, policy, store);
        return new ServerMetrics(registry);
    }

    @Bean
    StatusReporter statusReporter(ServerIdentity identity, DenseStore store, ConsistencyPolicy policy,
                                  ConsistencySettings consistency, Optimizer optimizer, ClusterProperties cluster,
                                  SparseTables sparse) {
        return new StatusReporter(identity, store, policy, consistency, optimizer, cluster.workerNum(), sparse);
    }

    @Bean
    StoreHealthIndicator parameterServerHealthIndicator(StatusReporter status, ServerIdentity identity) {
        return new StoreHealthIndicator(status, identity);
    }

    @Bean
    Frames frames(NettyDataBufferFactory bufferFactory, TransportProperties transport) {
        return new Frames(bufferFactory, transport.maxInboundPayloadBytes());
    }

    @Bean
    ChannelReader channelReader(Frames frames, TransportProperties transport, ServerMetrics metrics,
                                PsServerProperties server, MeterRegistry registry) {
        MemoryBudget inflight = new MemoryBudget(server.maxInflightBytes(), "inbound streams",
                "ps.server.max-inflight-bytes");
        io.micrometer.core.instrument.Gauge.builder("ps.server.inflight.bytes", inflight, MemoryBudget::used)
                .baseUnit("bytes").description("bytes reserved by init and push streams still arriving")
                .register(registry);
        return new ChannelReader(frames, transport.maxTensorBytes(), metrics, server.streamIdleTimeout(), inflight);
    }

    @Bean
    SliceStreamer sliceStreamer(Frames frames, TransportProperties transport, ServerIdentity identity) {
        return new SliceStreamer(frames, transport.pullChunkBytes(), identity::rank);
    }
}

package io.jvmps.worker.config;

import io.jvmps.worker.train.DataLoader;
import io.jvmps.worker.train.WorkerJob;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.node.NodeProperties;
import io.jvmps.common.node.SchedulerAddress;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.ClusterTls;
import io.jvmps.client.transport.TcpClients;
import io.jvmps.common.security.SetupSecretInterceptor;
import org.springframework.boot.rsocket.server.RSocketServerCustomizer;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.worker.allreduce.WorkerRSocketPort;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.worker.model.ModelProvider;
import io.jvmps.worker.model.ModelProviders;
import io.jvmps.worker.model.Placement;
import io.jvmps.worker.placement.LocalSyncFactory;
import io.jvmps.worker.placement.PlacementSettings;
import io.jvmps.worker.monitor.TrainingHealthIndicator;
import io.jvmps.worker.monitor.WorkerMetrics;
import io.jvmps.client.dataset.MnistDataset;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** Wires the worker's parts. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({WorkerProperties.class, SchedulerAddress.class, NodeProperties.class})
public class WorkerConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Measures every wait's deadline. */
    @Bean
    io.jvmps.common.time.MonotonicClock monotonicClock() {
        return io.jvmps.common.time.MonotonicClock.SYSTEM;
    }

    @Bean
    SchedulerClient schedulerClient(SchedulerAddress scheduler, ClusterSecret secret, ClusterTls tls) {
        if (!scheduler.enabled()) {
            throw new IllegalStateException("ps.scheduler.enabled=false: a worker needs the scheduler (for its rank, "
                    + "the servers and its data); only a server runs stand-alone");
        }
        return new SchedulerClient(scheduler.host(), scheduler.port(), scheduler.requestTimeout(), secret,
                tls.sslContext());
    }

    @Bean
    SchedulerSession schedulerSession(SchedulerClient client, NodeProperties node,
                                      io.jvmps.common.time.MonotonicClock clock) {
        return new SchedulerSession(client, node.host(), node.heartbeatInterval(), clock);
    }

    @Bean
    TrainingState trainingState() {
        return new TrainingState();
    }

    /** The parameter placement, checked against the model at start-up ({@code ps.worker.placement}). */
    @Bean
    Placement placement(WorkerProperties props, ModelProvider models) {
        return PlacementSettings.resolve(props, models);
    }

    /**
     * The model {@code ps.worker.model} names, looking for providers also in the jars of
     * {@code ps.worker.plugins-dir}: a bad name or model file stops start-up with a message naming the
     * property (see {@link ModelProviders#resolve}).
     */
    @Bean
    ModelProvider modelProvider(WorkerProperties props) {
        return resolveModel(props, io.jvmps.worker.model.PluginJars.loader(java.nio.file.Path.of(props.pluginsDir()),
                WorkerConfiguration.class.getClassLoader()));
    }

    /**
     * @param loader where to look for ModelProviders
     * @return the model of {@code ps.worker.model}: a model file the library trains when the graph has tables or the
     * label is not a class ({@link io.jvmps.worker.model.LibraryGraph}), else the stock worker's
     * ({@link ModelProviders#resolve})
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT naming the property that does not fit
     */
    static ModelProvider resolveModel(WorkerProperties props, ClassLoader loader) {
        if (!props.trainsWithLibrary()) {
            return ModelProviders.resolve(props.model(), props.graph().names(), loader);
        }
        java.nio.file.Path file = java.nio.file.Path.of(props.model().trim());
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new io.jvmps.common.protocol.PsException(io.jvmps.common.protocol.ErrorCode.INVALID_ARGUMENT,
                    "ps.worker.graph.tables and ps.worker.dataset.csv.label-kind=BINARY or REAL need ps.worker.model "
                            + "to be a SameDiff model file; no file at " + file.toAbsolutePath());
        }
        DataFormat format = props.dataset().format();
        if (format != DataFormat.CSV && format != DataFormat.LIBSVM) {
            throw new io.jvmps.common.protocol.PsException(io.jvmps.common.protocol.ErrorCode.INVALID_ARGUMENT,
                    "a model file with tables or a BINARY or REAL label reads CSV or LIBSVM data: set "
                            + "ps.worker.dataset.format=CSV or LIBSVM (it is " + format + ")");
        }
        io.jvmps.worker.model.LibraryGraph graph = io.jvmps.worker.model.LibraryGraph.load(file,
                props.graph().names(), props.graph().embeddingTables());
        if (format == DataFormat.LIBSVM && graph.idInputs().size() != 1) {
            throw new io.jvmps.common.protocol.PsException(io.jvmps.common.protocol.ErrorCode.INVALID_ARGUMENT,
                    "LIBSVM data feeds a model file's one table lookup (its feature ids, with NAME_values and "
                            + "NAME_mask beside them); the graph looks its tables up with "
                            + (graph.idInputs().isEmpty() ? "no id placeholder" : "ids " + graph.idInputs()));
        }
        return graph;
    }

    /** Exports asked for over REST while the job runs, served by the training thread. */
    @Bean
    io.jvmps.worker.export.ExportRequests exportRequests() {
        return new io.jvmps.worker.export.ExportRequests();
    }

    @Bean
    AllReduceMailbox allReduceMailbox() {
        return new AllReduceMailbox();
    }

    @Bean
    WorkerRSocketPort workerRSocketPort() {
        return new WorkerRSocketPort();
    }

    /**
     * Every connection this worker opens to AllReduce peers presents the cluster secret, uses TLS when the
     * cluster has a bundle, and counts as lost after {@code ps.worker.servers.connection-loss-timeout} without a
     * frame from the other side (keep-alive frames every fifth of it).
     */
    @Bean
    LocalSyncFactory localSyncFactory() {
        return new LocalSyncFactory();
    }

    /**
     * The worker's job; every kind joins through the library, announcing the worker's own RSocket server as its
     * AllReduce endpoint (TLS when the cluster has a bundle).
     */
    @Bean
    WorkerJob workerJob(WorkerProperties props, SchedulerSession session, TrainingState state, Clock clock,
                        SchedulerAddress scheduler, ClusterTls tls, NodeProperties node,
                        io.jvmps.common.time.MonotonicClock deadlines,
                        Placement placement, WorkerRSocketPort rsocketPort, AllReduceMailbox mailbox,
                        LocalSyncFactory localSync, TrainingMeters meters, ClusterSecret secret, TcpClients tcp,
                        ModelProvider models, io.jvmps.worker.export.ExportRequests exports) {
        io.jvmps.worker.train.LibraryJoin join = new io.jvmps.worker.train.LibraryJoin(
                librarySettings(props, scheduler, secret, tcp, tls, node), deadlines,
                new io.jvmps.worker.allreduce.WorkerRingEndpoint(rsocketPort, mailbox, tcp, props.servers().waitTimeout()));
        return new WorkerJob(props, session, state, dataLoader(props),
                new io.jvmps.worker.train.JobClocks(clock, deadlines), placement, localSync, meters, models, exports,
                new io.jvmps.worker.train.LibraryJob(props, join, state, meters), join);
    }

    /** The library's settings of a job it trains for this worker: the worker's own address, secret, TLS and waits. */
    private static io.jvmps.client.ClientSettings librarySettings(WorkerProperties props, SchedulerAddress scheduler,
                                                                  ClusterSecret secret, TcpClients tcp, ClusterTls tls,
                                                                  NodeProperties node) {
        ServerCallProperties servers = props.servers();
        return new io.jvmps.client.ClientSettings(scheduler.host(), scheduler.port(), secret, node.host(),
                servers.requestTimeout(), servers.waitTimeout(), servers.waitInterval(), node.heartbeatInterval(),
                servers.connectionLossTimeout(), servers.recoveryTimeout(), tcp, tls.sslContext());
    }

    /**
     * A missing MNIST folder or data file stops start-up with a message naming its property
     * ({@code ps.worker.dataset.path}, {@code ps.worker.dataset.train-file}, {@code ps.worker.dataset.test-file}), instead of
     * failing later on the training thread after registration.
     */
    private static DataLoader dataLoader(WorkerProperties props) {
        DatasetProperties data = props.dataset();
        switch (data.format()) {
            case MNIST -> MnistDataset.requirePresent(java.nio.file.Path.of(data.path()));
            case CSV -> {
                data.csv().format();
                requireFiles(data, "train-file", data.trainFile(), "test-file", data.testFile());
            }
            case LIBSVM -> requireFiles(data, "train-file", data.trainFile(), "test-file", data.testFile());
            case NPY -> requireFiles(data, "train-file", data.trainFile(), "train-labels-file", data.trainLabelsFile(),
                    "test-file", data.testFile(), "test-labels-file", data.testLabelsFile());
            case IMAGES -> {
                data.image().layout();
                requirePresent(data, true, "image.train-dir", data.image().trainDir(), "image.test-dir",
                        data.image().testDir());
            }
            case SYNTHETIC -> { }
        }
        return new DataLoader();
    }

    /** @param namesAndPaths each {@code ps.worker.dataset.} property's last part, then its file */
    private static void requireFiles(DatasetProperties data, String... namesAndPaths) {
        requirePresent(data, false, namesAndPaths);
    }

    /**
     * @param folders       whether the paths are folders (else regular files)
     * @param namesAndPaths each {@code ps.worker.dataset.} property's last part, then its path
     */
    private static void requirePresent(DatasetProperties data, boolean folders, String... namesAndPaths) {
        for (int i = 0; i < namesAndPaths.length; i += 2) {
            String property = "ps.worker.dataset." + namesAndPaths[i];
            String path = namesAndPaths[i + 1];
            java.nio.file.Path at = java.nio.file.Path.of(path);
            boolean present = folders ? java.nio.file.Files.isDirectory(at) : java.nio.file.Files.isRegularFile(at);
            if (path.isBlank() || !present) {
                throw new io.jvmps.common.protocol.PsException(io.jvmps.common.protocol.ErrorCode.INVALID_ARGUMENT,
                        property + (path.isBlank() ? " is not set (ps.worker.dataset.format=" + data.format()
                                + " reads it)" : ": no " + (folders ? "folder" : "file") + " at " + at.toAbsolutePath()));
            }
        }
    }

    /** Plain TCP, or TLS trusting the cluster's TLS bundle ({@code ps.security.tls.bundle}). */
    @Bean
    TcpClients tcpClients(ClusterTls tls) throws javax.net.ssl.SSLException {
        if (!tls.enabled()) {
            return TcpClients.PLAIN;
        }
        return new TcpClients(io.netty.handler.ssl.SslContextBuilder.forClient()
                .trustManager(tls.trustManagers()).keyManager(tls.keyManagers()).build());
    }

    /**
     * Refuses AllReduce peers whose RSocket SETUP frame lacks the cluster secret, then those that do not prove
     * a registered worker's identity ({@link io.jvmps.common.security.NodeIdentityCheck}).
     */
    @Bean
    RSocketServerCustomizer clusterSecretCheck(ClusterSecret secret, SchedulerClient scheduler) {
        return server -> server.interceptors(registry -> registry
                .forConnection(io.jvmps.common.security.PeerAddresses.interceptor())
                // registered first, so it runs after the secret check (the last one runs first)
                .forSocketAcceptor(new io.jvmps.common.security.NodeIdentityCheck(scheduler,
                        "workers' AllReduce endpoints", io.jvmps.common.security.NodeIdentityCheck.Binding.NONE))
                .forSocketAcceptor(new SetupSecretInterceptor(secret)));
    }

    /** Step, phase, loss and accuracy meters ({@code ps.worker.*}) for {@code /actuator/prometheus}. */
    @Bean
    WorkerMetrics workerMetrics(MeterRegistry registry, TrainingState state) {
        return new WorkerMetrics(registry, state);
    }

    /** The worker's readiness: registered, connected to every server, not failed. */
    @Bean
    TrainingHealthIndicator trainingHealthIndicator(TrainingState state) {
        return new TrainingHealthIndicator(state);
    }
}

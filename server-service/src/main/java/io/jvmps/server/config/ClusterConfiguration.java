package io.jvmps.server.config;

import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.server.cluster.ExitAction;
import io.jvmps.server.cluster.RegistrationStarter;
import io.jvmps.server.cluster.SchedulerRegistrar;
import io.jvmps.server.cluster.ServerIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** Registration with the scheduler; absent when {@code ps.scheduler.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "ps.scheduler.enabled", havingValue = "true", matchIfMissing = true)
public class ClusterConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ClusterConfiguration.class);

    @Bean
    SchedulerClient schedulerClient(io.jvmps.common.node.SchedulerAddress scheduler, io.jvmps.common.security.ClusterSecret secret,
                                    io.jvmps.common.security.ClusterTls tls) {
        return new SchedulerClient(scheduler.host(), scheduler.port(), scheduler.requestTimeout(), secret,
                tls.sslContext());
    }

    /**
     * Closes the context and exits with the given status. Runs on its own non-daemon thread: the
     * caller is a daemon thread, and the JVM would end with status 0 as soon as the context's last
     * non-daemon thread stopped, before a daemon thread reached {@code System.exit}.
     */
    @Bean
    @ConditionalOnMissingBean
    ExitAction exitAction(ConfigurableApplicationContext context) {
        return (code, message) -> {
            log.error(message);
            Thread exiter = new Thread(() -> {
                SpringApplication.exit(context, () -> code);
                System.exit(code);
            }, "ps-exit");
            exiter.setDaemon(false);
            exiter.start();
        };
    }

    @Bean
    io.jvmps.server.cluster.WorkerMembership workerMembership(io.jvmps.server.consistency.LiveWorkers liveWorkers) {
        return new io.jvmps.server.cluster.WorkerMembership(liveWorkers);
    }

    @Bean(destroyMethod = "close")
    SchedulerRegistrar schedulerRegistrar(SchedulerClient client, ServerIdentity identity, io.jvmps.common.node.NodeProperties node,
                                          PsServerProperties server, ExitAction exit,
                                          io.jvmps.server.cluster.WorkerMembership membership,
                                          io.micrometer.core.instrument.MeterRegistry registry,
                                          io.jvmps.server.consistency.ConsistencyPolicy policy,
                                          io.jvmps.server.sparse.SparseTables sparse) {
        return new SchedulerRegistrar(client, identity, node.host(),
                new SchedulerRegistrar.Timing(server.registerTimeout(), server.registerRetry(), node.heartbeatInterval()),
                io.jvmps.common.time.MonotonicClock.SYSTEM, exit, membership,
                new io.jvmps.server.monitor.ServerVitalsSource(registry, policy, () -> sparse.statuses().stream()
                        .limit(io.jvmps.common.protocol.ServerVitals.MAX_TABLES).toList()));
    }

    /**
     * Follows the scheduler's view stream, so a worker marked DEAD stops being waited for at once rather
     * than at the next heartbeat. Silence beyond three keep-alive periods means a lost connection.
     */
    @Bean(initMethod = "start", destroyMethod = "close")
    io.jvmps.common.cluster.ClusterViewWatcher clusterViewWatcher(SchedulerClient client, io.jvmps.common.node.NodeProperties node,
                                                                  io.jvmps.server.cluster.WorkerMembership membership,
                                                                  Clock clock) {
        return new io.jvmps.common.cluster.ClusterViewWatcher(client, membership, java.time.Duration.ofSeconds(30),
                node.heartbeatInterval(), clock);
    }

    @Bean
    RegistrationStarter registrationStarter(SchedulerRegistrar registrar) {
        return new RegistrationStarter(registrar);
    }
}

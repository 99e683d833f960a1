package io.jvmps.scheduler.config;

import io.jvmps.common.time.MonotonicClock;
import io.jvmps.scheduler.registry.NodeIdGenerator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;
import java.util.Random;

/** Infrastructure beans whose time and randomness tests replace: the clocks and the node-id source. */
@Configuration(proxyBeanMethods = false)
public class SchedulerConfiguration {

    /** @return the wall clock (UTC); tests supply a mutable one instead */
    @Bean
    @ConditionalOnMissingBean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** @return the JVM's monotonic clock, which heartbeat ages are measured on; tests supply one they move */
    @Bean
    @ConditionalOnMissingBean
    public MonotonicClock monotonicClock() {
        return MonotonicClock.SYSTEM;
    }

    /** @return node ids with a random suffix, seeded by {@code ps.scheduler.node-id-seed} when set */
    @Bean
    @ConditionalOnMissingBean
    public NodeIdGenerator nodeIdGenerator(SchedulerProperties properties) {
        Random random = properties.nodeIdSeed() == null ? new Random() : new Random(properties.nodeIdSeed());
        return new NodeIdGenerator(random);
    }
}

package io.jvmps.scheduler;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Entry point of the scheduler service: the rendezvous every server and worker registers with. */
@SpringBootApplication
@org.springframework.context.annotation.Import({io.jvmps.common.security.ClusterSecurityConfiguration.class,
        io.jvmps.common.http.HttpLimitsConfiguration.class})
@ConfigurationPropertiesScan(basePackageClasses = {SchedulerApplication.class, io.jvmps.common.cluster.ClusterProperties.class})
public class SchedulerApplication {

    /** Starts the scheduler. */
    public static void main(String[] args) {
        SpringApplication.run(SchedulerApplication.class, args);
    }
}

package io.jvmps.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Entry point of a parameter server node. It serves the RSocket routes of
 * {@link io.jvmps.common.protocol.Routes} and an HTTP status/actuator endpoint, and registers with
 * the scheduler unless {@code ps.scheduler.enabled=false}.
 */
@SpringBootApplication
@org.springframework.context.annotation.Import({io.jvmps.common.security.ClusterSecurityConfiguration.class,
        io.jvmps.common.http.HttpLimitsConfiguration.class})
@ConfigurationPropertiesScan(basePackageClasses = {ServerApplication.class, io.jvmps.common.cluster.ClusterProperties.class,
        io.jvmps.common.node.NodeProperties.class})
public class ServerApplication {

    /** @param args Spring Boot arguments, e.g. {@code --ps.scheduler.enabled=false} */
    public static void main(String[] args) {
        SpringApplication.run(ServerApplication.class, args);
    }
}

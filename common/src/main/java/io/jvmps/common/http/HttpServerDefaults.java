package io.jvmps.common.http;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * Every role's HTTP server answers one request per connection ({@code server.netty.max-keep-alive-requests=1}):
 * each answer carries {@code Connection: close}. Reactor Netty 1.3.6 can stop reading a kept-alive connection
 * when the client's next request arrives before the previous answer has finished on the server (an actuator or
 * any answer completed off the event loop): the request is then never answered and its client waits until its
 * own timeout, which for a heartbeat means a node wrongly declared dead. A new connection per request avoids
 * that state entirely; the scheduler's request rate (heartbeats, progress, leases) makes the cost negligible.
 * Lowest precedence, so setting the property explicitly wins. Registered through
 * {@code META-INF/spring.factories}.
 */
public final class HttpServerDefaults implements EnvironmentPostProcessor {
    /** Name of the property source this adds. */
    static final String SOURCE = "jvm-ps-http-defaults";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE,
                Map.of("server.netty.max-keep-alive-requests", "1")));
    }
}

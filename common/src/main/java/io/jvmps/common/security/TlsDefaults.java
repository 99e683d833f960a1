package io.jvmps.common.security;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * One switch for TLS: when {@code ps.security.tls.bundle} names a Spring SSL bundle
 * ({@code spring.ssl.bundle.jks.<name>.*} or {@code spring.ssl.bundle.pem.<name>.*}), this node's HTTP
 * server ({@code server.ssl.bundle}) and RSocket server ({@code spring.rsocket.server.ssl.bundle}) use
 * it, unless those properties are set explicitly (this source has the lowest precedence). Registered
 * through {@code META-INF/spring.factories}.
 */
public final class TlsDefaults implements EnvironmentPostProcessor {
    /** Name of the property source this adds. */
    static final String SOURCE = "jvm-ps-tls-defaults";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String bundle = Binder.get(environment).bind("ps.security.tls.bundle", String.class).orElse("");
        if (!bundle.isBlank()) {
            environment.getPropertySources().addLast(new MapPropertySource(SOURCE, Map.of(
                    "server.ssl.bundle", bundle, "spring.rsocket.server.ssl.bundle", bundle)));
        }
    }
}

package io.jvmps.common.http;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

/**
 * Spring wiring every role imports: installs the {@link BodyLimitWebFilter} with the same limit the JSON codecs
 * use ({@code spring.codec.max-in-memory-size}, 256 KB unless set), reading a refused body of up to 64 times the
 * limit for at most 10 seconds.
 */
@Configuration(proxyBeanMethods = false)
public class HttpLimitsConfiguration {
    private static final DataSize DEFAULT_LIMIT = DataSize.ofKilobytes(256);

    @Bean
    BodyLimitWebFilter bodyLimitWebFilter(Environment env) {
        long limit = Binder.get(env).bind("spring.codec.max-in-memory-size", DataSize.class)
                .orElse(DEFAULT_LIMIT).toBytes();
        return new BodyLimitWebFilter(limit, limit * 64, Duration.ofSeconds(10));
    }
}

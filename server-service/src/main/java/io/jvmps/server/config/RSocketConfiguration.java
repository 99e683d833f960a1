package io.jvmps.server.config;

import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.SetupSecretInterceptor;
import io.netty.buffer.PooledByteBufAllocator;
import org.springframework.boot.rsocket.messaging.RSocketStrategiesCustomizer;
import org.springframework.boot.rsocket.server.RSocketServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

/**
 * RSocket transport settings: payloads arrive as Netty buffers (so frames decode without a copy),
 * and inbound payloads are capped.
 *
 * <p>The cap works on two levels. RSocket refuses a server whose {@code maxInboundPayloadSize} is
 * below the TCP transport's maximum frame length (16 MiB - 1, not configurable through Boot), so
 * RSocket itself is given {@code max(ps.transport.max-inbound-payload-bytes, 16 MiB - 1)}: it rejects
 * larger fragmented payloads while reassembling them. Every payload that does reach a handler is then
 * checked against {@code ps.transport.max-inbound-payload-bytes} exactly by
 * {@link io.jvmps.server.api.Frames}, which answers {@code PAYLOAD_TOO_LARGE}.
 */
@Configuration(proxyBeanMethods = false)
public class RSocketConfiguration {
    /** RSocket's largest frame (24-bit length), the TCP transport's default maximum frame length. */
    static final int MAX_FRAME_LENGTH = 0xFFFFFF;

    @Bean
    NettyDataBufferFactory nettyDataBufferFactory() {
        return new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
    }

    /**
     * @return a customizer that makes the JSON routes refuse an object naming one field twice (Jackson would keep the
     *         last value silently): the request is answered INVALID_ARGUMENT naming the field
     */
    @Bean
    org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer strictDuplicates() {
        return builder -> builder.enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }

    @Bean
    RSocketStrategiesCustomizer nettyBuffers(NettyDataBufferFactory factory) {
        return strategies -> strategies.dataBufferFactory(factory);
    }

    /**
     * Refuses connections whose SETUP frame lacks the cluster secret, or declares a data MIME type other
     * than JSON (the requests this server decodes), before any route is reached; then, on a server with a
     * scheduler, connections that do not prove a registered worker's identity ({@link
     * io.jvmps.common.security.NodeIdentityCheck}), binding every request on the others to that worker.
     */
    @Bean
    RSocketServerCustomizer clusterSecretCheck(ClusterSecret secret,
                                               org.springframework.beans.factory.ObjectProvider<
                                                       io.jvmps.common.cluster.SchedulerClient> scheduler) {
        return server -> server.interceptors(registry -> {
            registry.forConnection(io.jvmps.common.security.PeerAddresses.interceptor());
            io.jvmps.common.cluster.SchedulerClient client = scheduler.getIfAvailable();
            if (client != null) { // registered first, so it runs after the secret check (the last one runs first)
                registry.forSocketAcceptor(new io.jvmps.common.security.NodeIdentityCheck(client, "this job's servers",
                        io.jvmps.server.api.SenderBoundResponder::bind));
            }
            registry.forSocketAcceptor(new SetupSecretInterceptor(secret,
                    org.springframework.util.MimeTypeUtils.APPLICATION_JSON_VALUE));
        });
    }

    /**
     * Boot's RSocket dispatcher (same strategies and customizers, so {@code @ControllerAdvice} error handling
     * still applies), answering requests no route takes in this server's {@code [CODE] message} format.
     */
    @Bean
    org.springframework.messaging.rsocket.annotation.support.RSocketMessageHandler messageHandler(
            org.springframework.messaging.rsocket.RSocketStrategies strategies,
            org.springframework.beans.factory.ObjectProvider<
                    org.springframework.boot.rsocket.autoconfigure.RSocketMessageHandlerCustomizer> customizers) {
        var handler = new io.jvmps.server.api.CodedRSocketMessageHandler();
        handler.setRSocketStrategies(strategies);
        customizers.orderedStream().forEach(c -> c.customize(handler));
        handler.setMetadataExtractor(new io.jvmps.server.api.CodedMetadataExtractor(handler.getMetadataExtractor()));
        return handler;
    }

    /** Closes a connection that sends no SETUP frame within {@code ps.server.setup-timeout} (RSocket's default: 1 min). */
    @Bean
    RSocketServerCustomizer setupDeadline(PsServerProperties server) {
        return rsocket -> rsocket.maxTimeToFirstFrame(server.setupTimeout());
    }

    /**
     * Dense init, push and pull and sparse push and pull go straight to their handlers, the control routes to
     * Spring's dispatch (see {@link io.jvmps.server.api.DataPathResponder}).
     */
    @Bean
    RSocketServerCustomizer dataPath(org.springframework.beans.factory.ObjectProvider<io.jvmps.server.api.DataHandlers> handlers,
                                     NettyDataBufferFactory buffers) {
        return server -> server.interceptors(registry -> registry.forResponder(
                (io.rsocket.plugins.RSocketInterceptor) spring -> io.jvmps.server.api.SenderBoundResponder.inside(spring,
                        inner -> io.jvmps.server.api.DataPathResponder.wrap(inner, handlers.getObject(), buffers))));
    }

    @Bean
    RSocketServerCustomizer inboundPayloadCap(TransportProperties transport) {
        return server -> server.maxInboundPayloadSize(Math.max(transport.maxInboundPayloadBytes(), MAX_FRAME_LENGTH));
    }
}

package io.jvmps.server.cluster;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.rsocket.context.RSocketServerInitializedEvent;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;

/**
 * Collects the bound RSocket and HTTP ports from Spring's server events and starts the
 * {@link SchedulerRegistrar} once the application is ready (both servers up).
 */
public final class RegistrationStarter {
    private final SchedulerRegistrar registrar;
    private volatile int rsocketPort = -1;
    private volatile int httpPort;

    /** @param registrar the registrar to start */
    public RegistrationStarter(SchedulerRegistrar registrar) {
        this.registrar = registrar;
    }

    /** Remembers the RSocket port. */
    @EventListener
    public void onRSocketServer(RSocketServerInitializedEvent event) {
        rsocketPort = event.getServer().address().getPort();
    }

    /** Remembers the HTTP port (the management server, if separate, is ignored). */
    @EventListener
    public void onWebServer(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            httpPort = event.getWebServer().getPort();
        }
    }

    /** Starts registration. */
    @EventListener
    public void onReady(ApplicationReadyEvent event) {
        if (rsocketPort < 0) {
            throw new IllegalStateException("RSocket server did not start: set spring.rsocket.server.port");
        }
        registrar.start(rsocketPort, httpPort);
    }
}

package io.jvmps.worker.config;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How this worker waits for, talks to and recovers its servers ({@code ps.worker.servers.*}).
 *
 * @param waitTimeout how long to wait for every server to register and accept connections before failing
 * @param waitInterval pause between two checks while waiting for servers
 * @param requestTimeout deadline of one push or pull, including the sync barrier wait on the server
 * @param connectionLossTimeout a connection to a server (or AllReduce peer) that delivers nothing, not even an answer
 *     to the keep-alive frames sent every fifth of this, for this long counts as lost (then recovery starts); this is
 *     what notices a host that vanished without closing its connections (power or network loss)
 * @param recoveryTimeout after losing a server (connection closed, or the servers rolled back to a checkpoint): how
 *     long to keep trying to reconnect and resume from the servers' newest checkpoint before failing; zero turns
 *     recovery off (the worker fails at once, as without checkpoints)
 */
public record ServerCallProperties(
        @NotNull @DefaultValue("5m") Duration waitTimeout,
        @NotNull @DefaultValue("3s") Duration waitInterval,
        @NotNull @DefaultValue("3m") Duration requestTimeout,
        @NotNull @DurationMin(millis = 500,
                message = "ps.worker.servers.connection-loss-timeout must be at least 500ms (e.g. 15s)")
        @DefaultValue("15s") Duration connectionLossTimeout,
        @NotNull @DefaultValue("5m") Duration recoveryTimeout) {
}

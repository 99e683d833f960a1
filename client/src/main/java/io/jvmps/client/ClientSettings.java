package io.jvmps.client;

import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.client.transport.TcpClients;
import io.jvmps.common.security.ClusterSecret;

import java.time.Duration;
import java.util.Objects;

/**
 * Where a job's scheduler is and how a library worker talks to the cluster. Immutable; every {@code with...}
 * returns a copy. The defaults are the stock worker's.
 *
 * @param schedulerHost     the scheduler's host
 * @param schedulerPort     the scheduler's HTTP port (REST)
 * @param secret            the cluster secret ({@code ps.security.secret} of the nodes)
 * @param advertisedHost    the host this worker shows in the cluster view (default {@code 127.0.0.1})
 * @param requestTimeout    deadline of one push, pull or control call, server-side waits included (3 min)
 * @param serverWaitTimeout how long {@link PsJob#join} waits for registration and every server (5 min)
 * @param serverWaitInterval pause between rounds of that wait (3 s)
 * @param heartbeatInterval pause between heartbeats to the scheduler (2 s)
 * @param lossTimeout       a server connection counts as lost after this long without a frame (15 s)
 * @param recoveryTimeout   how long the trainer tries to bring a job back after a lost server (5 min; zero:
 *                          never, a lost server ends training)
 * @param tcp               plain TCP ({@link TcpClients#PLAIN}) or TLS to the servers
 * @param schedulerTls      HTTPS to the scheduler with this context, or null for plain HTTP
 */
public record ClientSettings(String schedulerHost, int schedulerPort, ClusterSecret secret, String advertisedHost,
                             Duration requestTimeout, Duration serverWaitTimeout, Duration serverWaitInterval,
                             Duration heartbeatInterval, Duration lossTimeout, Duration recoveryTimeout, TcpClients tcp,
                             javax.net.ssl.SSLContext schedulerTls) {

    /** Checks the settings. */
    public ClientSettings {
        Objects.requireNonNull(schedulerHost, "schedulerHost");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(tcp, "tcp");
        if (schedulerPort < 1 || schedulerPort > 65535) {
            throw new IllegalArgumentException("schedulerPort must be in 1..65535, got " + schedulerPort);
        }
        if (recoveryTimeout == null || recoveryTimeout.isNegative()) {
            throw new IllegalArgumentException("recoveryTimeout must be zero or positive, got " + recoveryTimeout);
        }
        for (Duration d : new Duration[] {requestTimeout, serverWaitTimeout, serverWaitInterval, heartbeatInterval,
                lossTimeout}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("every timeout and interval must be positive, got " + d);
            }
        }
    }

    /**
     * @param schedulerHost the scheduler's host
     * @param schedulerPort its HTTP port
     * @param secret        the cluster secret (at least {@value ClusterSecret#MIN_LENGTH} characters)
     * @return settings with the defaults for everything else
     */
    public static ClientSettings of(String schedulerHost, int schedulerPort, String secret) {
        return new ClientSettings(schedulerHost, schedulerPort, ClusterSecret.of(secret), "127.0.0.1",
                Duration.ofMinutes(3), Duration.ofMinutes(5), Duration.ofSeconds(3), Duration.ofSeconds(2),
                Duration.ofSeconds(15), Duration.ofMinutes(5), TcpClients.PLAIN, null);
    }

    /** @return a copy with another request timeout */
    public ClientSettings withRequestTimeout(Duration timeout) {
        return new ClientSettings(schedulerHost, schedulerPort, secret, advertisedHost, timeout, serverWaitTimeout,
                serverWaitInterval, heartbeatInterval, lossTimeout, recoveryTimeout, tcp,
                schedulerTls);
    }

    /** @return a copy with another wait for registration and servers */
    public ClientSettings withServerWaitTimeout(Duration timeout) {
        return new ClientSettings(schedulerHost, schedulerPort, secret, advertisedHost, requestTimeout, timeout,
                serverWaitInterval, heartbeatInterval, lossTimeout, recoveryTimeout, tcp,
                schedulerTls);
    }

    /** @return a copy with another pause between rounds of that wait */
    public ClientSettings withServerWaitInterval(Duration interval) {
        return new ClientSettings(schedulerHost, schedulerPort, secret, advertisedHost, requestTimeout,
                serverWaitTimeout, interval, heartbeatInterval, lossTimeout, recoveryTimeout, tcp,
                schedulerTls);
    }

    /** @return a copy with another recovery timeout (zero: a lost server ends training) */
    public ClientSettings withRecoveryTimeout(Duration timeout) {
        return new ClientSettings(schedulerHost, schedulerPort, secret, advertisedHost, requestTimeout,
                serverWaitTimeout, serverWaitInterval, heartbeatInterval, lossTimeout, timeout, tcp, schedulerTls);
    }

    /** @return a copy advertising another host in the cluster view */
    public ClientSettings withAdvertisedHost(String host) {
        return new ClientSettings(schedulerHost, schedulerPort, secret, host, requestTimeout, serverWaitTimeout,
                serverWaitInterval, heartbeatInterval, lossTimeout, recoveryTimeout, tcp,
                schedulerTls);
    }

    /** @return the server-connection part of these settings */
    public ConnectionSettings connections() {
        return new ConnectionSettings(secret, tcp, lossTimeout);
    }
}

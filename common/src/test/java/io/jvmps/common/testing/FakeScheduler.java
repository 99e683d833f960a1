package io.jvmps.common.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.security.ClusterSecret;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A scheduler stand-in for tests of the nodes' scheduler calls: the JDK's HTTP server on a free loopback port with
 * one handler for one path (and everything under it), and a {@link SchedulerClient} to it with the test secret and
 * a 5 s request deadline. Close it to stop the server. The handler runs on the server's one thread.
 */
public final class FakeScheduler implements AutoCloseable {
    /** The cluster secret of {@link #client()}. */
    public static final ClusterSecret SECRET = ClusterSecret.of("test-cluster-secret-0123456789");

    private final HttpServer server;

    private FakeScheduler(HttpServer server) {
        this.server = server;
    }

    /** Starts a fake scheduler whose {@code handler} answers every request under {@code path}. */
    public static FakeScheduler start(String path, HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, handler);
        server.start();
        return new FakeScheduler(server);
    }

    /** @return the bound port */
    public int port() {
        return server.getAddress().getPort();
    }

    /** @return a new client of this scheduler (test secret, 5 s request deadline) */
    public SchedulerClient client() {
        return new SchedulerClient("127.0.0.1", port(), Duration.ofSeconds(5), SECRET);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

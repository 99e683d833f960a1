package io.jvmps.common.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Follows the scheduler's cluster view stream so that a node learns membership changes (a node marked
 * DEAD, a rank taken over) as they happen instead of at its next heartbeat. Reads on one daemon thread;
 * when the stream breaks, ends, or stays silent longer than {@code idleLimit} (the scheduler sends a
 * keep-alive every few seconds, so silence means a lost connection) it reconnects after
 * {@code retry}. Heartbeats still carry views too: this only makes them arrive sooner. Thread-safe.
 */
public final class ClusterViewWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterViewWatcher.class);

    private final SchedulerClient client;
    private final Consumer<ClusterView> views;
    private final Duration idleLimit;
    private final Duration retry;
    private final Clock clock;
    private final ScheduledExecutorService watchdog;
    private final Thread reader;
    private volatile boolean closed;
    private volatile InputStream current;
    private volatile Instant lastLine;

    /**
     * @param client    the scheduler client (address, secret, TLS)
     * @param views     told every view received, on the reading thread
     * @param idleLimit silence after which the connection is dropped and opened again
     * @param retry     pause before reconnecting
     * @param clock     time source of the idle check
     */
    public ClusterViewWatcher(SchedulerClient client, Consumer<ClusterView> views, Duration idleLimit, Duration retry,
                              Clock clock) {
        this.client = client;
        this.views = views;
        this.idleLimit = idleLimit;
        this.retry = retry;
        this.clock = clock;
        this.lastLine = clock.instant();
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ps-view-watchdog"));
        this.reader = daemon(this::run, "ps-view-stream");
    }

    /** Starts following the stream. */
    public void start() {
        long every = Math.max(100, idleLimit.toMillis() / 4);
        watchdog.scheduleWithFixedDelay(this::dropIfSilent, every, every, TimeUnit.MILLISECONDS);
        reader.start();
    }

    @Override
    public void close() {
        closed = true;
        watchdog.shutdownNow();
        reader.interrupt();
        closeQuietly(current);
    }

    private void run() {
        boolean warned = false;
        while (!closed) {
            Thread.interrupted(); // a watchdog interrupt of the last stream must not fail the next attempt
            try {
                follow();
                warned = false;
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                if (!warned) {
                    log.info("Cluster view stream from {} unavailable ({}); heartbeats still carry views; "
                            + "retrying every {} ms", client.base(), e.getMessage(), retry.toMillis());
                    warned = true;
                }
            }
            try {
                Thread.sleep(retry.toMillis());
            } catch (InterruptedException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void follow() throws IOException {
        InputStream stream = client.openClusterStream();
        current = stream;
        lastLine = clock.instant();
        if (closed) {
            closeQuietly(stream);
            return;
        }
        log.info("Following the cluster view stream of {}", client.base());
        ClusterViewEvents events = new ClusterViewEvents(json -> views.accept(client.parseView(json)));
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                lastLine = clock.instant();
                events.line(line);
            }
        } finally {
            current = null;
        }
    }

    private void dropIfSilent() {
        InputStream stream = current;
        if (stream != null && clock.instant().isAfter(lastLine.plus(idleLimit))) {
            log.warn("Cluster view stream of {} silent for more than {} ms: reconnecting", client.base(),
                    idleLimit.toMillis());
            closeQuietly(stream);
            reader.interrupt(); // in case closing does not wake a blocked read
        }
    }

    private static void closeQuietly(InputStream stream) {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // closing only to unblock the reader
            }
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}

package io.jvmps.client.control;

import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ProgressReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Sends progress reports to the scheduler off the training thread. At most one report waits;
 * a newer one replaces it, so a slow scheduler never slows training. Thread-safe.
 */
public class ProgressReporter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProgressReporter.class);

    private final SchedulerClient scheduler;
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1), r -> {
                Thread t = new Thread(r, "progress-reporter");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.DiscardOldestPolicy());

    /** @param scheduler where the reports go ({@code POST /api/v1/progress}) */
    public ProgressReporter(SchedulerClient scheduler) {
        this.scheduler = scheduler;
    }

    /** Queues a report, replacing one not yet sent. */
    public void report(ProgressReport report) {
        executor.execute(() -> {
            try {
                scheduler.reportProgress(report);
            } catch (RuntimeException e) {
                log.debug("progress report failed: {}", e.getMessage());
            }
        });
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

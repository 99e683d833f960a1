package io.jvmps.scheduler.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one action every {@code interval} on its own daemon thread, from context start to context
 * stop. A failing run is logged and the loop goes on. The scheduler's background loops (failure
 * detection, dashboard events) are instances of it.
 */
public abstract class PeriodicTask implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

    private final String threadName;
    private final long intervalMillis;
    private final long initialDelayMillis;
    private ScheduledExecutorService executor;

    /**
     * @param threadName   name of the loop's thread (also in the failure log line)
     * @param interval     pause between two runs
     * @param initialDelay pause before the first run
     */
    protected PeriodicTask(String threadName, Duration interval, Duration initialDelay) {
        this.threadName = threadName;
        this.intervalMillis = interval.toMillis();
        this.initialDelayMillis = initialDelay.toMillis();
    }

    /** One pass of the loop. */
    protected abstract void runOnce();

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::safeRun, initialDelayMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    private void safeRun() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            log.error("{} pass failed; will retry in {} ms", threadName, intervalMillis, e);
        }
    }
}

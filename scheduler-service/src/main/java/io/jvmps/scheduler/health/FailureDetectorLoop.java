package io.jvmps.scheduler.health;

import io.jvmps.scheduler.config.SchedulerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link FailureDetector#check()} every {@code ps.scheduler.failure-check-interval} on one daemon
 * thread, from context start to context stop. A failing pass is logged and the loop goes on.
 */
@Component
public class FailureDetectorLoop implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(FailureDetectorLoop.class);

    private final FailureDetector detector;
    private final long intervalMillis;
    private ScheduledExecutorService executor;

    /**
     * @param detector   the pass to run
     * @param properties supplies the check interval
     */
    public FailureDetectorLoop(FailureDetector detector, SchedulerProperties properties) {
        this.detector = detector;
        this.intervalMillis = properties.failureCheckInterval().toMillis();
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ps-failure-detector");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::safeCheck, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
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

    private void safeCheck() {
        try {
            detector.check();
        } catch (RuntimeException e) {
            log.error("Failure detector pass failed; will retry in {} ms", intervalMillis, e);
        }
    }
}

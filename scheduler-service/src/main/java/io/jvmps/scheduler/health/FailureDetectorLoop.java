package io.jvmps.scheduler.health;

import io.jvmps.scheduler.config.PeriodicTask;
import io.jvmps.scheduler.config.SchedulerProperties;
import org.springframework.stereotype.Component;

/**
 * Runs {@link FailureDetector#check()} every {@code ps.scheduler.failure-check-interval} on one daemon
 * thread, from context start to context stop. A failing pass is logged and the loop goes on.
 */
@Component
public class FailureDetectorLoop extends PeriodicTask {
    private final FailureDetector detector;

    /**
     * @param detector   the pass to run
     * @param properties supplies the check interval
     */
    public FailureDetectorLoop(FailureDetector detector, SchedulerProperties properties) {
        super("ps-failure-detector", properties.failureCheckInterval(), properties.failureCheckInterval());
        this.detector = detector;
    }

    @Override
    protected void runOnce() {
        detector.check();
    }
}

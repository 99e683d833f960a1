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
    private final io.jvmps.scheduler.state.SchedulerStateStore state;

    /**
     * @param detector   the pass to run
     * @param properties supplies the check interval
     * @param state      saves the job's state when a pass marked nodes DEAD
     */
    public FailureDetectorLoop(FailureDetector detector, SchedulerProperties properties,
                               io.jvmps.scheduler.state.SchedulerStateStore state) {
        super("ps-failure-detector", properties.failureCheckInterval(), properties.failureCheckInterval());
        this.detector = detector;
        this.state = state;
    }

    @Override
    protected void runOnce() {
        if (!detector.check().isEmpty()) {
            state.save();
        }
    }
}

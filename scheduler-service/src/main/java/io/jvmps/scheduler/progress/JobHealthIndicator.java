package io.jvmps.scheduler.progress;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Actuator health contributor {@code job}: DOWN with the reason once the job FAILED, UP otherwise, with the job's
 * state as a detail. It is not part of the readiness or liveness groups, so a failed job never makes an
 * orchestrator restart the scheduler (which would forget why the job failed).
 */
@Component("job")
public class JobHealthIndicator implements HealthIndicator {
    private final JobTracker job;

    /** @param job the job tracker */
    public JobHealthIndicator(JobTracker job) {
        this.job = job;
    }

    @Override
    public Health health() {
        String failure = job.failure();
        Health.Builder builder = failure == null ? Health.up() : Health.down().withDetail("failure", failure);
        return builder.withDetail("state", job.state().name()).build();
    }
}

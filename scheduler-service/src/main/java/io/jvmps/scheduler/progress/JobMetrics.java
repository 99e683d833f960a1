package io.jvmps.scheduler.progress;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * Publishes the job's state as gauge {@code ps.scheduler.job.state}, one per {@link JobState} (tag {@code state}):
 * 1 for the current state, 0 for the others. Alert on {@code state="failed"} == 1. Read on scrape.
 */
@Component
public class JobMetrics implements MeterBinder {
    private final JobTracker job;

    /** @param job the job tracker */
    public JobMetrics(JobTracker job) {
        this.job = job;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        for (JobState state : JobState.values()) {
            Gauge.builder("ps.scheduler.job.state", job, j -> j.state() == state ? 1 : 0)
                    .description("1 for the job's current state, 0 for the others")
                    .tag("state", state.name().toLowerCase(java.util.Locale.ROOT))
                    .register(meters);
        }
    }
}

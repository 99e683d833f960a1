package io.jvmps.scheduler.dashboard;

import io.jvmps.scheduler.config.PeriodicTask;
import org.springframework.stereotype.Component;

import java.time.Duration;

/** Records the dashboard's cluster events every {@link DashboardFeed#PERIOD}, from context start to stop. */
@Component
public class DashboardEventLoop extends PeriodicTask {
    private final DashboardFeed feed;

    /** @param feed where events are recorded */
    public DashboardEventLoop(DashboardFeed feed) {
        super("ps-dashboard-events", DashboardFeed.PERIOD, Duration.ZERO);
        this.feed = feed;
    }

    @Override
    protected void runOnce() {
        feed.observe();
    }
}

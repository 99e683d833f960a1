package io.jvmps.worker.monitor;

import io.jvmps.worker.train.progress.TrainingState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health contributor {@code training} (part of the readiness group): OUT_OF_SERVICE while the worker
 * has not registered or is still waiting for a server, DOWN once training failed, UP while it is
 * connected to every server and training, evaluating or done. Details: phase, rank, step, loss.
 */
public final class TrainingHealthIndicator implements HealthIndicator {
    private final TrainingState state;

    /** @param state the live training state */
    public TrainingHealthIndicator(TrainingState state) {
        this.state = state;
    }

    @Override
    public Health health() {
        TrainingState.Snapshot s = state.get();
        Status status = switch (s.phase()) {
            case STARTING, WAITING_FOR_SERVERS -> Status.OUT_OF_SERVICE;
            case FAILED -> Status.DOWN;
            default -> Status.UP;
        };
        Health.Builder health = Health.status(status).withDetail("phase", s.phase()).withDetail("rank", s.rank())
                .withDetail("globalStep", s.globalStep()).withDetail("totalSteps", s.totalSteps());
        if (!Double.isNaN(s.loss())) {
            health.withDetail("loss", s.loss());
        }
        if (s.error() != null) {
            health.withDetail("error", s.error());
        }
        return health.build();
    }
}

package io.jvmps.server.config;

import io.jvmps.common.optimizer.schedule.JobLength;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Where the job's own length reaches this server's learning-rate schedule: a worker's dense declaration says how
 * many updates a slice will see over the job, and with {@code ps.optimizer.schedule=COSINE} but no
 * {@code ps.optimizer.total-steps} the decay is sized from it (the first length told wins). With an explicit
 * {@code total-steps}, or another schedule, the job's length is only logged. Thread-safe.
 */
public final class JobSchedule {
    private static final Logger log = LoggerFactory.getLogger(JobSchedule.class);

    private final JobLength length = new JobLength();
    private final OptimizerProperties optimizer;

    /** @param optimizer the servers' {@code ps.optimizer.*} settings */
    public JobSchedule(OptimizerProperties optimizer) {
        this.optimizer = optimizer;
    }

    /** @return where the optimizers read the job's length */
    public JobLength length() {
        return length;
    }

    /**
     * Takes the length a worker declared, logging once what the schedule then is and the rates of the job's first
     * and last update.
     *
     * @param jobUpdates the job's updates per slice as the worker counts them; 0 when it did not say
     */
    public void told(long jobUpdates) {
        if (!length.tell(jobUpdates)) {
            return;
        }
        LearningRateSchedule schedule = optimizer.settings(length).learningRateSchedule();
        if (optimizer.cosineSizedByJob()) {
            String described = schedule.describe().replace(" (the job's " + jobUpdates + " updates)", "");
            log.info(String.format(Locale.ROOT, "Learning-rate schedule sized for the job's %d updates: %s; rate "
                            + "%.6g at update 1, %.6g at update %d", jobUpdates, described,
                    schedule.rate(1), schedule.rate(jobUpdates), jobUpdates));
        } else {
            log.info("The job runs {} updates per slice; the learning-rate schedule is {} (set by ps.optimizer.*)",
                    jobUpdates, schedule.describe());
        }
    }
}

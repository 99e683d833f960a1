package io.jvmps.scheduler.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The job's shape, bound from {@code ps.cluster.*} (MindSpore aliases {@code MS_SERVER_NUM},
 * {@code MS_WORKER_NUM} in application.yml). Validated at start-up.
 *
 * @param serverNum number of parameter servers the job expects ({@code ps.cluster.server-num})
 * @param workerNum number of workers the job expects ({@code ps.cluster.worker-num}); it starts once
 *                  that many registered
 * @param maxWorkerNum how many workers may take part at most ({@code ps.cluster.max-worker-num}): workers
 *                  registering while every one of the {@code workerNum} ranks is taken and none is DEAD get
 *                  the next rank up to this (scale-out, for jobs with dynamic data sharding); 0 (the default)
 *                  means {@code workerNum}: no scale-out
 */
@Validated
@ConfigurationProperties("ps.cluster")
public record ClusterProperties(
        @DefaultValue("1")
        @Min(value = 1, message = "ps.cluster.server-num must be between 1 and 4096 (number of parameter servers)")
        @Max(value = 4096, message = "ps.cluster.server-num must be between 1 and 4096 (number of parameter servers)")
        int serverNum,
        @DefaultValue("1")
        @Min(value = 1, message = "ps.cluster.worker-num must be between 1 and 4096 (number of workers)")
        @Max(value = 4096, message = "ps.cluster.worker-num must be between 1 and 4096 (number of workers)")
        int workerNum,
        @DefaultValue("0")
        @Min(value = 0, message = "ps.cluster.max-worker-num must be 0 (= worker-num) or between worker-num and 4096")
        @Max(value = 4096, message = "ps.cluster.max-worker-num must be 0 (= worker-num) or between worker-num and 4096")
        int maxWorkerNum) {

    /** Checks that a scale-out cap, when set, is not below the job's worker count. */
    @org.springframework.boot.context.properties.bind.ConstructorBinding
    public ClusterProperties {
        if (maxWorkerNum != 0 && maxWorkerNum < workerNum) {
            throw new IllegalArgumentException("ps.cluster.max-worker-num must be 0 (= worker-num) or at least "
                    + "ps.cluster.worker-num=" + workerNum + ", got " + maxWorkerNum);
        }
    }

    /** A job without scale-out. */
    public ClusterProperties(int serverNum, int workerNum) {
        this(serverNum, workerNum, 0);
    }

    /** @return the most workers that may take part: {@code maxWorkerNum}, or {@code workerNum} when it is 0 */
    public int workerCapacity() {
        return Math.max(workerNum, maxWorkerNum);
    }
}

package io.jvmps.common.cluster;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The job's shape, bound from {@code ps.cluster.*} by the scheduler and the servers (their application.yml
 * maps the MindSpore variables {@code MS_SERVER_NUM} and {@code MS_WORKER_NUM} onto it). Checked when
 * bound: a bad value fails start-up with a message naming the property. Immutable.
 *
 * @param serverNum    parameter servers the job expects ({@code ps.cluster.server-num}, 1..4096)
 * @param workerNum    workers the job expects ({@code ps.cluster.worker-num}, 1..4096); it starts once that
 *                     many registered, and a SYNC step waits for that many
 * @param maxWorkerNum how many workers may take part at most ({@code ps.cluster.max-worker-num}): a worker
 *                     registering while every one of the {@code workerNum} ranks is taken and none is DEAD
 *                     gets the next rank up to this, and servers accept those ranks once a worker joins at
 *                     them (scale-out, with dynamic data sharding); 0, the default, means {@code workerNum}
 */
@ConfigurationProperties("ps.cluster")
public record ClusterProperties(@DefaultValue("1") int serverNum, @DefaultValue("1") int workerNum,
                                @DefaultValue("0") int maxWorkerNum) {
    private static final int MAX = 4096;

    /** Checks the values. */
    @ConstructorBinding
    public ClusterProperties {
        if (serverNum < 1 || serverNum > MAX) {
            throw new IllegalArgumentException("ps.cluster.server-num must be between 1 and 4096 (number of "
                    + "parameter servers), got " + serverNum);
        }
        if (workerNum < 1 || workerNum > MAX) {
            throw new IllegalArgumentException("ps.cluster.worker-num must be between 1 and 4096 (number of workers), "
                    + "got " + workerNum);
        }
        if (maxWorkerNum != 0 && (maxWorkerNum < workerNum || maxWorkerNum > MAX)) {
            throw new IllegalArgumentException("ps.cluster.max-worker-num must be 0 (= worker-num) or between "
                    + "ps.cluster.worker-num=" + workerNum + " and 4096, got " + maxWorkerNum);
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

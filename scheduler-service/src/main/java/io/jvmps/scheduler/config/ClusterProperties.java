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
 * @param workerNum number of workers the job expects ({@code ps.cluster.worker-num})
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
        int workerNum) {
}

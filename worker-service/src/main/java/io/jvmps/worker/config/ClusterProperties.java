package io.jvmps.worker.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Where the scheduler is, how many nodes the job has, and how this node presents itself
 * ({@code ps.cluster.*}, {@code ps.scheduler.*}, {@code ps.node.*}; MindSpore's {@code MS_*} variables are
 * the defaults in application.yml).
 */
@Validated
@ConfigurationProperties(prefix = "ps")
public class ClusterProperties {
    @Valid
    private final Cluster cluster = new Cluster();
    @Valid
    private final Scheduler scheduler = new Scheduler();
    @Valid
    private final Node node = new Node();

    public Cluster getCluster() {
        return cluster;
    }

    public Scheduler getScheduler() {
        return scheduler;
    }

    public Node getNode() {
        return node;
    }

    /** Expected node counts. */
    public static class Cluster {
        @Min(1)
        private int serverNum = 1;
        @Min(1)
        private int workerNum = 1;

        public int getServerNum() {
            return serverNum;
        }

        public void setServerNum(int serverNum) {
            this.serverNum = serverNum;
        }

        public int getWorkerNum() {
            return workerNum;
        }

        public void setWorkerNum(int workerNum) {
            this.workerNum = workerNum;
        }
    }

    /** The scheduler's address. */
    public static class Scheduler {
        @NotBlank
        private String host = "127.0.0.1";
        @Min(1)
        @Max(65535)
        private int port = 8080;
        @NotNull
        private Duration requestTimeout = Duration.ofSeconds(10);

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }
    }

    /** This node. */
    public static class Node {
        @NotBlank
        private String host = "127.0.0.1";
        @NotNull
        private Duration heartbeatInterval = Duration.ofSeconds(2);

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public Duration getHeartbeatInterval() {
            return heartbeatInterval;
        }

        public void setHeartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
        }
    }
}

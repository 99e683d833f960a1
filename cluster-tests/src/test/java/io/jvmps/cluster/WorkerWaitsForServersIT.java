package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker whose servers never come logs what it waits for and exits non-zero at its deadline. */
class WorkerWaitsForServersIT {

    @Test
    void workerGivesUpNamingTheMissingServer() throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-waits")) {
            cluster.startScheduler(1, 1);
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.worker.dataset.format=SYNTHETIC", "--ps.worker.servers.wait-timeout=5s",
                    "--ps.worker.servers.wait-interval=1s");

            worker.awaitLog(Pattern.compile("server not ready, wait 1 sec to retry\\.\\.\\. registered 0/1 servers \\[], "
                    + "missing ranks \\[0]"), Duration.ofSeconds(60));
            int exit = worker.awaitExit(Duration.ofSeconds(60));

            assertThat(exit).isNotZero();
            assertThat(worker.logText()).contains("Worker failed: [TIMEOUT] servers not ready after PT5S")
                    .contains("missing ranks [0]").doesNotContain("\tat ");
        }
    }
}

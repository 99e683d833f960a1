package io.jvmps.scheduler.progress;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.scheduler.registry.NodeIdGenerator;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.scheduler.registry.ClusterFullException;
import io.jvmps.scheduler.registry.Registration;
import io.jvmps.scheduler.support.MutableClock;
import io.jvmps.scheduler.support.Requests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(OutputCaptureExtension.class)
class JobTrackerTest {
    private final MutableClock clock = new MutableClock(Instant.EPOCH);
    private final NodeRegistry registry = new NodeRegistry(new ClusterProperties(1, 2),
            new MutableClock(Instant.EPOCH), clock, new NodeIdGenerator(new Random(3)));
    private final JobTracker tracker = new JobTracker(registry, clock);

    @Test
    void jobGoesFromWaitingToRunningToFinishedWithSummedAccuracy(CapturedOutput output) {
        assertThat(tracker.status().state()).isEqualTo("WAITING");
        String server = registry.register(Requests.server(9000)).node().nodeId();
        String w0 = registry.register(Requests.worker()).node().nodeId();
        assertThat(tracker.status().state()).isEqualTo("WAITING");
        String w1 = registry.register(Requests.worker()).node().nodeId();
        assertThat(tracker.status().state()).isEqualTo("RUNNING");
        assertThat(tracker.status().accuracy()).isNaN();

        tracker.report(new ProgressReport(w1, 1, 10, 9, 0.7, 100, 0, 0));
        tracker.report(new ProgressReport(w0, 1, 10, 9, 0.5, 120, 0, 0));
        tracker.report(new ProgressReport(w0, 1, 20, 19, 0.3, 130, 0, 0));
        tracker.result(new ResultReport(w0, 4900, 5000, 60));
        JobStatus running = tracker.status();
        assertThat(running.state()).isEqualTo("RUNNING");
        assertThat(running.workersReported()).isEqualTo(1);
        assertThat(running.latest()).extracting(ProgressReport::nodeId).containsExactly(w0, w1);
        assertThat(running.latest().get(0).step()).as("latest report wins").isEqualTo(20);
        assertThat(output).contains("Worker 0 reported accuracy 4900/5000").doesNotContain("Job finished");

        tracker.result(new ResultReport(w1, 4876, 5000, 61));
        JobStatus finished = tracker.status();
        assertThat(finished.state()).isEqualTo("FINISHED");
        assertThat(finished.workersReported()).isEqualTo(2);
        assertThat(finished.expectedWorkers()).isEqualTo(2);
        assertThat(finished.correct()).isEqualTo(9776);
        assertThat(finished.total()).isEqualTo(10000);
        assertThat(finished.accuracy()).isEqualTo(0.9776);
        assertThat(output).contains("Worker 1 reported accuracy 4876/5000")
                .contains("Job finished: test accuracy 97.76% (9776/10000)");
        assertThat(server).isNotNull();
    }

    @Test
    void regressionResultsSumToTheJobsRmseAndMae(CapturedOutput output) {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        tracker.result(ResultReport.regression(w0, 30.0, 20.0, 40, 5));
        assertThat(tracker.status().task()).isEqualTo("REGRESSION");
        assertThat(tracker.status().rmse()).isCloseTo(Math.sqrt(30.0 / 40), within(1e-12));
        tracker.result(ResultReport.regression(w1, 50.0, 40.0, 60, 5));
        JobStatus finished = tracker.status();
        assertThat(finished.state()).isEqualTo("FINISHED");
        assertThat(finished.total()).isEqualTo(100);
        assertThat(finished.rmse()).isCloseTo(Math.sqrt(0.8), within(1e-12));
        assertThat(finished.mae()).isCloseTo(0.6, within(1e-12));
        assertThat(finished.accuracy()).isNaN();
        assertThat(output).contains("Worker 1 reported RMSE 0.9129 over 60 targets")
                .contains("Job finished: test RMSE 0.8944, MAE 0.6000 (100 targets)");
    }

    @Test
    void aBadOrMixedRegressionResultIsRefusedAndChangesNothing() {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        assertThatThrownBy(() -> tracker.result(ResultReport.regression(w0, Double.NaN, 1.0, 10, 1)))
                .hasMessageContaining("needs finite squaredError and absoluteError >= 0");
        assertThatThrownBy(() -> tracker.result(new ResultReport(w0, 3, 10, 1, 1.0, 1.0, null)))
                .hasMessageContaining("counts no correct predictions");
        tracker.result(ResultReport.regression(w0, 1.0, 1.0, 10, 1));
        assertThatThrownBy(() -> tracker.result(new ResultReport(w1, 3, 10, 1)))
                .hasMessageContaining("this job's workers report regression results, this one a classification "
                        + "result; every worker must report the same kind");
        assertThat(tracker.status().workersReported()).isEqualTo(1);
        assertThat(tracker.status().task()).isEqualTo("REGRESSION");
    }

    @Test
    void clickResultsMergeToTheJobsAucLogLossAndAccuracy(CapturedOutput output) {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        // worker 0 saw only clicks, worker 1 only non-clicks: neither shard has an AUC, their sum has
        tracker.result(ResultReport.clicks(w0, ClickHistogram.of(new double[] {0.9, 0.6, 0.3}, new double[] {1, 1, 1}),
                5));
        assertThat(tracker.status().task()).isEqualTo("BINARY");
        assertThat(tracker.status().auc()).as("one class so far").isNaN();
        tracker.result(ResultReport.clicks(w1, ClickHistogram.of(new double[] {0.7, 0.2}, new double[] {0, 0}), 5));
        JobStatus finished = tracker.status();
        assertThat(finished.state()).isEqualTo("FINISHED");
        // pairs (click, non-click) the click wins: 0.9 beats both, 0.6 beats 0.2, 0.3 beats 0.2: 4 of 6
        assertThat(finished.auc()).isCloseTo(4.0 / 6, within(1e-12));
        double logLoss = -(Math.log(0.9) + Math.log(0.6) + Math.log(0.3) + Math.log(0.3) + Math.log(0.8)) / 5;
        assertThat(finished.logLoss()).isCloseTo(logLoss, within(1e-9));
        assertThat(finished.correct()).as("p >= 0.5 for 0.9 and 0.6; p < 0.5 for 0.2").isEqualTo(3);
        assertThat(finished.accuracy()).isEqualTo(0.6);
        assertThat(finished.rmse()).isNaN();
        assertThat(output).contains("Job finished: test AUC 0.6667, log loss " + String.format(java.util.Locale.ROOT,
                "%.4f", logLoss) + ", accuracy 0.6000 (5 examples)");
    }

    @Test
    void aBadOrMixedClickResultIsRefusedAndChangesNothing() {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        String w1 = registry.register(Requests.worker()).node().nodeId();
        ClickHistogram good = ClickHistogram.of(new double[] {0.9, 0.1}, new double[] {1, 0});
        assertThatThrownBy(() -> tracker.result(new ResultReport(w0, 2, 2, 1, null, null,
                new ClickHistogram(new long[3], new long[3], 0))))
                .hasMessageContaining("clicks and nonClicks must each hold 4096 bucket counts, got 3 and 3");
        assertThatThrownBy(() -> tracker.result(new ResultReport(w0, 1, 2, 1, null, null, good)))
                .hasMessageContaining("must count the examples and correct predictions of its histogram (2 and 2)");
        assertThatThrownBy(() -> tracker.result(new ResultReport(w0, 2, 2, 1, 1.0, 1.0, good)))
                .hasMessageContaining("not both");
        assertThat(tracker.status().workersReported()).isZero();
        tracker.result(ResultReport.clicks(w0, good, 1));
        assertThatThrownBy(() -> tracker.result(ResultReport.regression(w1, 1.0, 1.0, 2, 1)))
                .hasMessageContaining("this job's workers report binary results, this one a regression result");
        tracker.result(new ResultReport(w1, 0, 0, 1));
        assertThat(tracker.status().state()).as("an empty shard's result fits any task").isEqualTo("FINISHED");
        assertThat(tracker.status().auc()).isEqualTo(1.0);
    }

    @Test
    void aJobWhoseDeadWorkerWasDroppedFinishesWithTheSurvivorsResults() {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        registry.register(Requests.worker());
        registry.expireSilent(java.time.Duration.ofSeconds(10).toNanos(), java.time.Duration.ofSeconds(5)); // every node silent: all DEAD
        registry.heartbeat(w0); // the survivor is ALIVE again; worker 1 stays DEAD
        assertThat(tracker.status().state()).as("no result yet").isNotEqualTo("FINISHED");
        tracker.result(new ResultReport(w0, 80, 100, 1));
        assertThat(tracker.status().state()).isEqualTo("FINISHED");
        assertThat(tracker.status().workersReported()).isEqualTo(1);
    }

    @Test
    void aScaleOutWorkerGetsTheNextRankAndTheJobWaitsForItsResultToo() {
        NodeRegistry elastic = new NodeRegistry(new ClusterProperties(1, 2, 3), new MutableClock(Instant.EPOCH),
                clock, new NodeIdGenerator(new Random(4)));
        JobTracker job = new JobTracker(elastic, clock);
        elastic.register(Requests.server(9000));
        String w0 = elastic.register(Requests.worker()).node().nodeId();
        String w1 = elastic.register(Requests.worker()).node().nodeId();
        assertThat(job.status().state()).isEqualTo("RUNNING");
        Registration third = elastic.register(Requests.worker());
        assertThat(third.node().rank()).as("beyond worker-num, up to max-worker-num").isEqualTo(2);
        assertThatThrownBy(() -> elastic.register(Requests.worker())).isInstanceOf(ClusterFullException.class)
                .hasMessageContaining("expected 3 (ps.cluster.max-worker-num)");

        job.result(new ResultReport(w0, 80, 100, 1));
        job.result(new ResultReport(w1, 70, 100, 1));
        assertThat(job.status().state()).as("the scale-out worker has not reported").isEqualTo("RUNNING");
        assertThat(job.status().expectedWorkers()).isEqualTo(3);
        job.result(new ResultReport(third.node().nodeId(), 0, 0, 1)); // no test shard of its own
        assertThat(job.status().state()).isEqualTo("FINISHED");
        assertThat(job.status().total()).isEqualTo(200);
    }

    @Test
    void aRepeatedResultReplacesTheEarlierOne() {
        registry.register(Requests.server(9000));
        String w0 = registry.register(Requests.worker()).node().nodeId();
        tracker.result(new ResultReport(w0, 10, 100, 1));
        tracker.result(new ResultReport(w0, 90, 100, 1));
        assertThat(tracker.status().correct()).isEqualTo(90);
        assertThat(tracker.status().workersReported()).isEqualTo(1);
    }

    @Test
    void rejectsUnknownNodesServersAndImpossibleCounts() {
        String server = registry.register(Requests.server(9000)).node().nodeId();
        String w0 = registry.register(Requests.worker()).node().nodeId();

        assertCode(() -> tracker.result(new ResultReport("worker-7-0000", 1, 2, 0)), ErrorCode.UNKNOWN_KEY);
        assertCode(() -> tracker.report(new ProgressReport("nobody", 1, 1, 0, 1, 1, 0, 0)), ErrorCode.UNKNOWN_KEY);
        assertCode(() -> tracker.result(new ResultReport(server, 1, 2, 0)), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> tracker.result(new ResultReport(w0, 3, 2, 0)), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> tracker.result(new ResultReport(w0, 0, -1, 0)), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> tracker.report(new ProgressReport(w0, -1, 1, 0, 1, 1, 0, 0)), ErrorCode.INVALID_ARGUMENT);
        assertThat(tracker.status().workersReported()).isZero();
        assertThat(tracker.status().latest()).isEmpty();
    }

    private static void assertCode(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(code));
    }
}

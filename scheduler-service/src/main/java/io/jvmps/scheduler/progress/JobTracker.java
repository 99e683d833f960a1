package io.jvmps.scheduler.progress;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JobFailure;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps each worker's latest progress and final result, keyed by worker rank (a node that takes over a
 * dead worker's rank replaces its entries), and derives the {@link JobStatus}. Reports from unknown
 * ids are rejected with UNKNOWN_KEY, from non-workers or with impossible counts with INVALID_ARGUMENT.
 * Thread-safe.
 */
@Component
public class JobTracker {
    private static final Logger log = LoggerFactory.getLogger(JobTracker.class);
    private static final int MAX_REASON_CHARS = 2000;

    private final NodeRegistry registry;
    private final Map<Integer, ProgressReport> progress = new TreeMap<>();
    private final Map<Integer, ResultReport> results = new TreeMap<>();
    private final LossHistory history = new LossHistory(500);
    private final java.time.Clock clock;
    private boolean finishAnnounced;
    private String failure;

    /**
     * @param registry resolves node ids to worker ranks
     * @param clock    timestamps the loss history
     */
    public JobTracker(NodeRegistry registry, java.time.Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /** Stores a worker's latest progress. */
    public synchronized void report(ProgressReport report) {
        if (report == null) {
            throw invalid("progress report body is required");
        }
        NodeInfo worker = requireWorker(report.nodeId());
        if (report.epoch() < 0 || report.step() < 0 || report.globalStep() < 0 || report.bytesPushed() < 0
                || report.bytesPulled() < 0) {
            throw invalid("epoch, step, globalStep, bytesPushed and bytesPulled must be >= 0, got epoch="
                    + report.epoch() + " step=" + report.step() + " globalStep=" + report.globalStep()
                    + " bytesPushed=" + report.bytesPushed() + " bytesPulled=" + report.bytesPulled());
        }
        progress.put(worker.rank(), report);
        history.add(worker.rank(), report, clock.millis());
    }

    /**
     * The job's progress as it is kept across a restart of the scheduler (the loss curves are not kept).
     *
     * @param progress each worker rank's latest progress report
     * @param results  each worker rank's final result
     * @param failure  why the job failed, or null
     */
    public record Saved(Map<Integer, ProgressReport> progress, Map<Integer, ResultReport> results, String failure) {
    }

    /** @return the job's state, for {@link #restore} after a restart */
    public synchronized Saved save() {
        return new Saved(Map.copyOf(progress), Map.copyOf(results), failure);
    }

    /** Takes back a saved state (at start-up, before any request). */
    public synchronized void restore(Saved saved) {
        progress.clear();
        progress.putAll(saved.progress());
        results.clear();
        results.putAll(saved.results());
        failure = saved.failure();
        finishAnnounced = finished();
    }

    /** @return every worker's loss and throughput curve, by rank */
    public synchronized Map<Integer, List<LossHistory.Point>> history() {
        return history.snapshot();
    }

    /**
     * Stores a worker's final result; the job is FINISHED once every expected worker reported one or was
     * dropped (marked DEAD without a result: the others finished the job without it).
     */
    public synchronized void result(ResultReport report) {
        if (report == null) {
            throw invalid("result report body is required");
        }
        NodeInfo worker = requireWorker(report.nodeId());
        if (report.total() < 0 || report.correct() < 0 || report.correct() > report.total()) {
            throw invalid("need 0 <= correct <= total, got correct=" + report.correct() + " total="
                    + report.total());
        }
        if (report.isRegression() && report.isBinary()) {
            throw invalid("a result is either a regression's (error sums) or a click model's (clicks), not both");
        }
        if (report.isRegression()) {
            checkRegression(report);
        }
        if (report.isBinary()) {
            checkClicks(report);
        }
        String task = task(report);
        for (Map.Entry<Integer, ResultReport> earlier : results.entrySet()) {
            String other = task(earlier.getValue());
            if (task != null && other != null && earlier.getKey() != worker.rank() && !other.equals(task)) {
                throw invalid("this job's workers report " + other.toLowerCase(Locale.ROOT) + " results, this one a "
                        + task.toLowerCase(Locale.ROOT) + " result; every worker must report the same kind");
            }
        }
        results.put(worker.rank(), report);
        logResult(worker.rank(), report);
        if (!finishAnnounced && finished()) {
            finishAnnounced = true;
            logFinished(status());
        }
    }

    /** @return the result's task, or null for an empty shard's (a scale-out worker's), which fits any task */
    private static String task(ResultReport report) {
        if (report.isRegression()) {
            return JobStatus.REGRESSION;
        }
        if (report.isBinary()) {
            return JobStatus.BINARY;
        }
        return report.total() == 0 ? null : JobStatus.CLASSIFICATION;
    }

    private static void logResult(int rank, ResultReport report) {
        if (report.isRegression()) {
            log.info(String.format(Locale.ROOT, "Worker %d reported RMSE %.4f over %d targets", rank,
                    Math.sqrt(report.squaredError() / Math.max(1, report.total())), report.total()));
        } else if (report.isBinary()) {
            log.info(String.format(Locale.ROOT, "Worker %d reported AUC %.4f, log loss %.4f over %d examples", rank,
                    report.clicks().auc(), report.clicks().logLoss(), report.total()));
        } else {
            log.info("Worker {} reported accuracy {}/{}", rank, report.correct(), report.total());
        }
    }

    private static void logFinished(JobStatus status) {
        switch (status.task()) {
            case JobStatus.REGRESSION -> log.info(String.format(Locale.ROOT,
                    "Job finished: test RMSE %.4f, MAE %.4f (%d targets)", status.rmse(), status.mae(), status.total()));
            case JobStatus.BINARY -> log.info(String.format(Locale.ROOT,
                    "Job finished: test AUC %.4f, log loss %.4f, accuracy %.4f (%d examples)", status.auc(),
                    status.logLoss(), status.accuracy(), status.total()));
            default -> {
                AccuracyTally tally = new AccuracyTally(status.correct(), status.total());
                log.info("Job finished: test accuracy {}% ({}/{})", tally.percent(), tally.correct(), tally.total());
            }
        }
    }

    private static void checkClicks(ResultReport report) {
        String problem = report.clicks().problem();
        if (problem != null) {
            throw invalid("a click model's result has a bad histogram: " + problem);
        }
        if (report.clicks().examples() != report.total() || report.clicks().correct() != report.correct()) {
            throw invalid("a click model's result must count the examples and correct predictions of its histogram ("
                    + report.clicks().examples() + " and " + report.clicks().correct() + "), got total="
                    + report.total() + " correct=" + report.correct());
        }
    }

    private static void checkRegression(ResultReport report) {
        Double squared = report.squaredError();
        Double absolute = report.absoluteError();
        if (squared == null || absolute == null || !Double.isFinite(squared) || !Double.isFinite(absolute)
                || squared < 0 || absolute < 0) {
            throw invalid("a regression result needs finite squaredError and absoluteError >= 0, got squaredError="
                    + squared + " absoluteError=" + absolute);
        }
        if (report.correct() != 0) {
            throw invalid("a regression result counts no correct predictions, got correct=" + report.correct());
        }
    }

    /**
     * Ends the job: a node found that it cannot go on. The first report sets the state to FAILED with its
     * reason (logged once at ERROR); later ones are logged at INFO and change nothing. A job that has already
     * FINISHED stays so.
     *
     * @throws PsException UNKNOWN_KEY for an unregistered node id, INVALID_ARGUMENT for a blank or over-long reason
     */
    public synchronized void fail(JobFailure report) {
        if (report == null) {
            throw invalid("job failure body is required");
        }
        NodeInfo node = registry.require(report.nodeId());
        String reason = report.reason() == null ? "" : report.reason().strip();
        if (reason.isEmpty() || reason.length() > MAX_REASON_CHARS) {
            throw invalid("field reason must say why the job cannot go on in 1 to " + MAX_REASON_CHARS
                    + " characters, got " + reason.length());
        }
        String by = node.role().label() + " rank " + node.rank() + " (" + node.nodeId() + ")";
        if (failure != null || finished()) {
            log.info("The {} also reports the job cannot go on: {}", by, reason);
            return;
        }
        failure = reason + " (reported by " + by + ")";
        log.error("Job FAILED: {}", failure);
    }

    /** @return why the job failed, or null while it has not */
    public synchronized String failure() {
        return failure;
    }

    /** @return the job's state, summed accuracy, latest progress per worker and the failure, if any */
    public synchronized JobStatus status() {
        AccuracyTally tally = tally();
        int expectedWorkers = Math.max(registry.expected(NodeRole.WORKER), registry.registered(NodeRole.WORKER));
        String task = results.values().stream().map(JobTracker::task).filter(java.util.Objects::nonNull).findFirst()
                .orElse(JobStatus.CLASSIFICATION);
        List<ProgressReport> latest = List.copyOf(progress.values());
        long total = tally.total();
        return switch (task) {
            case JobStatus.REGRESSION -> {
                double squared = results.values().stream().filter(ResultReport::isRegression)
                        .mapToDouble(ResultReport::squaredError).sum();
                double absolute = results.values().stream().filter(ResultReport::isRegression)
                        .mapToDouble(ResultReport::absoluteError).sum();
                yield new JobStatus(state().name(), results.size(), expectedWorkers, 0, total, Double.NaN, latest,
                        failure, task, total == 0 ? Double.NaN : Math.sqrt(squared / total),
                        total == 0 ? Double.NaN : absolute / total, Double.NaN, Double.NaN);
            }
            case JobStatus.BINARY -> {
                ClickHistogram clicks = results.values().stream().filter(ResultReport::isBinary)
                        .map(ResultReport::clicks).reduce(ClickHistogram.empty(), ClickHistogram::plus);
                yield new JobStatus(state().name(), results.size(), expectedWorkers, tally.correct(), total,
                        tally.accuracy(), latest, failure, task, Double.NaN, Double.NaN, clicks.auc(), clicks.logLoss());
            }
            default -> new JobStatus(state().name(), results.size(), expectedWorkers, tally.correct(), total,
                    tally.accuracy(), latest, failure);
        };
    }

    /** @return the job phase */
    public synchronized JobState state() {
        if (failure != null) {
            return JobState.FAILED;
        }
        if (finished()) {
            return JobState.FINISHED;
        }
        return registry.view().complete() ? JobState.RUNNING : JobState.WAITING;
    }

    private boolean finished() {
        if (results.isEmpty()) {
            return false;
        }
        long dropped = registry.view().workers().stream()
                .filter(n -> n.state() == io.jvmps.common.cluster.NodeState.DEAD && !results.containsKey(n.rank()))
                .count();
        // workers beyond worker-num (scale-out) must report too
        return results.size() + dropped >= Math.max(registry.expected(NodeRole.WORKER),
                registry.registered(NodeRole.WORKER));
    }

    private AccuracyTally tally() {
        AccuracyTally tally = AccuracyTally.ZERO;
        for (ResultReport r : results.values()) {
            tally = tally.plus(r.correct(), r.total());
        }
        return tally;
    }

    private NodeInfo requireWorker(String nodeId) {
        NodeInfo node = registry.require(nodeId);
        if (node.role() != NodeRole.WORKER) {
            throw invalid("node '" + nodeId + "' is a " + node.role().label() + "; only workers report progress");
        }
        return node;
    }

    private static PsException invalid(String detail) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, detail);
    }
}

package io.jvmps.scheduler.web;

import io.jvmps.common.security.NodeToken;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.scheduler.progress.JobTracker;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Job endpoints: workers post progress and results; anyone reads the job status. */
@RestController
@RequestMapping("/api/v1")
public class JobController {
    private final JobTracker job;
    private final io.jvmps.scheduler.state.SchedulerStateStore state;
    private final NodeRegistry registry;

    /**
     * @param job      the job tracker
     * @param state    saves the job's state after every change, before the answer
     * @param registry checks that a report comes from the node it names (its token)
     */
    public JobController(JobTracker job, io.jvmps.scheduler.state.SchedulerStateStore state, NodeRegistry registry) {
        this.job = job;
        this.state = state;
        this.registry = registry;
    }

    /** {@code POST /api/v1/progress}: a worker's latest progress; 202. */
    @PostMapping("/progress")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public void progress(@RequestBody ProgressReport report,
                         @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        registry.authenticate(report.nodeId(), token);
        job.report(report);
        state.save();
    }

    /** {@code POST /api/v1/results}: a worker's final evaluation; 202. */
    @PostMapping("/results")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public void result(@RequestBody ResultReport report,
                       @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        registry.authenticate(report.nodeId(), token);
        job.result(report);
        state.save();
    }

    /** {@code POST /api/v1/job/failure}: a node reports that the job cannot go on; the first one ends it; 202. */
    @PostMapping("/job/failure")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public void failure(@RequestBody io.jvmps.common.protocol.JobFailure report,
                        @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        registry.authenticate(report.nodeId(), token);
        job.fail(report);
        state.save();
    }

    /** {@code GET /api/v1/job}: state, summed accuracy, latest progress per worker. */
    @GetMapping("/job")
    public JobStatus status() {
        return job.status();
    }
}

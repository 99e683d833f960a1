package io.jvmps.scheduler.web;

import io.jvmps.common.security.NodeToken;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.protocol.ServerVitals;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Membership endpoints: register, heartbeat, leave. Thin: the registry does the work. */
@RestController
@RequestMapping("/api/v1/nodes")
public class NodeController {
    private final NodeRegistry registry;
    private final io.jvmps.scheduler.progress.JobTracker job;
    private final io.jvmps.scheduler.state.SchedulerStateStore state;
    private final io.jvmps.scheduler.dashboard.ServerVitalsBoard board;

    /**
     * @param registry the membership table
     * @param job      the job, whose failure (if any) every registration answer carries
     * @param state    saves the job's state after every membership change, before the answer
     * @param board    keeps what servers report with their heartbeats, for the dashboard
     */
    public NodeController(NodeRegistry registry, io.jvmps.scheduler.progress.JobTracker job,
                          io.jvmps.scheduler.state.SchedulerStateStore state,
                          io.jvmps.scheduler.dashboard.ServerVitalsBoard board) {
        this.registry = registry;
        this.job = job;
        this.state = state;
        this.board = board;
    }

    /**
     * {@code POST /api/v1/nodes}: registers a server or worker and returns its id, rank, the view, whether the
     * job had started, and why it failed if it did (such a node does not take part).
     */
    @PostMapping
    public RegisterResponse register(@RequestBody RegisterRequest request,
                                     @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        RegisterResponse answer = registry.register(request, token).toResponse(job.failure());
        state.save();
        return answer;
    }

    /**
     * {@code PUT /api/v1/nodes/{nodeId}/heartbeat}: records the node's heartbeat (its token required), and a server's
     * {@link ServerVitals} when it sends them (checked first: a bad body changes nothing); returns the view.
     */
    @PutMapping("/{nodeId}/heartbeat")
    public ClusterView heartbeat(@PathVariable String nodeId,
                                 @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token,
                                 @RequestBody(required = false) ServerVitals vitals) {
        if (vitals != null) {
            vitals.requireValid();
        }
        long before = registry.epoch();
        ClusterView view = registry.heartbeat(nodeId, token);
        if (vitals != null) {
            vitals(nodeId, vitals, view);
        }
        if (view.epoch() != before) { // a DEAD node came back
            state.save();
        }
        return view;
    }

    private void vitals(String nodeId, ServerVitals vitals, ClusterView view) {
        boolean server = view.nodes().stream()
                .anyMatch(n -> n.nodeId().equals(nodeId) && n.role() == io.jvmps.common.cluster.NodeRole.SERVER);
        if (server) {
            board.record(nodeId, vitals);
        }
    }

    /**
     * {@code POST /api/v1/nodes/{nodeId}/identity}: whether the token in {@link NodeToken#HTTP_HEADER} is this
     * node's; a server, or a worker's AllReduce endpoint, asks it for every RSocket connection that presents a
     * node identity.
     *
     * @return the node (its role, rank and state); 401 UNAUTHENTICATED when the token is not its own
     */
    @PostMapping("/{nodeId}/identity")
    public NodeInfo identity(@PathVariable String nodeId,
                             @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        return registry.authenticate(nodeId, token);
    }

    /**
     * {@code DELETE /api/v1/nodes/{nodeId}}: marks the node FINISHED; with {@code ?failed=true} (a node
     * leaving because it failed) DEAD, so that a replacement can take its rank at once. Only the node itself
     * (its token) may.
     */
    @DeleteMapping("/{nodeId}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void leave(@PathVariable String nodeId, @RequestParam(defaultValue = "false") boolean failed,
                      @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        registry.authenticate(nodeId, token);
        if (failed) {
            registry.fail(nodeId);
        } else {
            registry.leave(nodeId);
        }
        state.save();
    }
}

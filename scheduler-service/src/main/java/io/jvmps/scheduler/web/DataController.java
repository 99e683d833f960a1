package io.jvmps.scheduler.web;

import io.jvmps.common.security.NodeToken;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.common.protocol.PartitionRequest;
import io.jvmps.scheduler.data.DataPartitions;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Dynamic data sharding: workers ask for their next data partition. Thin: {@link DataPartitions} decides. */
@RestController
@RequestMapping("/api/v1/data")
public class DataController {
    private final DataPartitions partitions;
    private final io.jvmps.scheduler.state.SchedulerStateStore state;
    private final NodeRegistry registry;

    /**
     * @param partitions the job's partition queue
     * @param state      saves the job's state after every lease, before the answer
     * @param registry   checks that a request comes from the worker it names (its token)
     */
    public DataController(DataPartitions partitions, io.jvmps.scheduler.state.SchedulerStateStore state,
                          NodeRegistry registry) {
        this.partitions = partitions;
        this.state = state;
        this.registry = registry;
    }

    /** {@code POST /api/v1/data/partitions}: records a finished partition and leases the next one. */
    @PostMapping("/partitions")
    public PartitionLease next(@RequestBody PartitionRequest request,
                               @RequestHeader(name = NodeToken.HTTP_HEADER, required = false) String token) {
        registry.authenticate(request.nodeId(), token);
        PartitionLease lease = partitions.next(request);
        state.save();
        return lease;
    }
}

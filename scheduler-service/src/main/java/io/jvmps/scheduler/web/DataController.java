package io.jvmps.scheduler.web;

import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.common.protocol.PartitionRequest;
import io.jvmps.scheduler.data.DataPartitions;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Dynamic data sharding: workers ask for their next data partition. Thin: {@link DataPartitions} decides. */
@RestController
@RequestMapping("/api/v1/data")
public class DataController {
    private final DataPartitions partitions;

    /** @param partitions the job's partition queue */
    public DataController(DataPartitions partitions) {
        this.partitions = partitions;
    }

    /** {@code POST /api/v1/data/partitions}: records a finished partition and leases the next one. */
    @PostMapping("/partitions")
    public PartitionLease next(@RequestBody PartitionRequest request) {
        return partitions.next(request);
    }
}

package io.jvmps.worker.placement;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.client.allreduce.PeerWaiter;
import io.jvmps.worker.allreduce.RSocketRingLink;
import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.TrainableModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.rsocket.RSocketRequester;

import java.time.Clock;
import java.util.List;

/**
 * Builds the {@link LocalParameterSync} a worker's model needs: {@link LocalParameterSync#NONE} when
 * every parameter is on the PS, otherwise an {@link AllReduceParameterSync} over a ring of the job's
 * workers (found through the scheduler) with the servers' update rule.
 */
public class LocalSyncFactory {
    private static final Logger log = LoggerFactory.getLogger(LocalSyncFactory.class);

    private final RSocketRequester.Builder requesters;
    private final io.jvmps.client.transport.TcpClients tcp;
    private final AllReduceMailbox mailbox;
    private final WorkerProperties props;
    private final Clock clock;

    public LocalSyncFactory(RSocketRequester.Builder requesters, io.jvmps.client.transport.TcpClients tcp,
                            AllReduceMailbox mailbox, WorkerProperties props,
                            Clock clock) {
        this.requesters = requesters;
        this.tcp = tcp;
        this.mailbox = mailbox;
        this.props = props;
        this.clock = clock;
    }

    /**
     * @param model     the model, placed, its local parameters holding their initial values
     * @param servers   the servers' description (mode, optimizer, learning rate)
     * @param scheduler where the peers are listed
     * @param rank      this worker's rank
     * @param workers   workers in the job
     * @return the sync to run after every step
     * @throws PsException INVALID_ARGUMENT for GEO mode or an optimizer hybrid mode cannot mirror
     */
    public LocalParameterSync create(TrainableModel model, ServerDescription servers, SchedulerClient scheduler,
                                     int rank, int workers) {
        if (model.localParams().isEmpty()) {
            return LocalParameterSync.NONE;
        }
        if (servers.mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "hybrid placement (ps.worker.placement=HYBRID) needs "
                    + "servers in SYNC, ASYNC or SSP mode; they run GEO");
        }
        var optimizer = HybridUpdateRule.forServers(servers);
        List<NodeInfo> peers = new PeerWaiter(scheduler, clock).await(workers, props.getServerWaitTimeout(),
                props.getServerWaitInterval());
        RSocketRingLink link = new RSocketRingLink(requesters, peers, rank, mailbox, props.getRequestTimeout(),
                TensorChunker.DEFAULT_CHUNK_BYTES, tcp);
        log.info("Worker-local parameters {} are averaged by a ring AllReduce over {} workers {} and updated with the "
                        + "servers' {}", model.localParams(), workers,
                peers.stream().map(NodeInfo::rsocketEndpoint).toList(), optimizer.describe());
        return new AllReduceParameterSync(model, optimizer, new RingAllReduce(link), link);
    }
}

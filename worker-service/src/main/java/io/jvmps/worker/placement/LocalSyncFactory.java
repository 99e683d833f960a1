package io.jvmps.worker.placement;

import io.jvmps.client.train.HybridUpdateRule;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.client.allreduce.PeerWaiter;
import io.jvmps.client.allreduce.RSocketRingLink;
import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.worker.config.ServerCallProperties;
import io.jvmps.worker.model.TrainableModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.MonotonicClock;
import java.util.List;

/**
 * Builds the {@link LocalParameterSync} a worker's model needs: {@link LocalParameterSync#NONE} when
 * every parameter is on the PS, otherwise an {@link AllReduceParameterSync} over a ring of the job's
 * workers (found through the scheduler) with the servers' update rule.
 */
public class LocalSyncFactory {
    private static final Logger log = LoggerFactory.getLogger(LocalSyncFactory.class);

    private final io.jvmps.client.transport.ConnectionSettings connections;
    private final AllReduceMailbox mailbox;
    private final ServerCallProperties serverCalls;
    private final MonotonicClock clock;

    /** @param connections how to reach the peers' AllReduce endpoints (secret, TCP or TLS, loss timeout) */
    public LocalSyncFactory(io.jvmps.client.transport.ConnectionSettings connections, AllReduceMailbox mailbox,
                            ServerCallProperties serverCalls, MonotonicClock clock) {
        this.connections = connections;
        this.mailbox = mailbox;
        this.serverCalls = serverCalls;
        this.clock = clock;
    }

    /**
     * @param model     the model, placed, its local parameters holding their initial values
     * @param servers   the servers' description (mode, optimizer, learning rate)
     * @param session   this worker's registration: where the peers are listed, and the identity its ring
     *                  connection presents (peers' AllReduce endpoints take registered workers only)
     * @param rank      this worker's rank
     * @param workers   workers in the job
     * @param steps     steps this worker runs over the job (sizes a cosine schedule the servers take from the job)
     * @return the sync to run after every step
     * @throws PsException INVALID_ARGUMENT for GEO mode or an optimizer hybrid mode cannot mirror
     */
    public LocalParameterSync create(TrainableModel model, ServerDescription servers, SchedulerSession session,
                                     int rank, int workers, long steps) {
        if (model.localParams().isEmpty()) {
            return LocalParameterSync.NONE;
        }
        if (servers.mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "hybrid placement (ps.worker.placement=HYBRID) needs "
                    + "servers in SYNC, ASYNC or SSP mode; they run GEO");
        }
        var optimizer = HybridUpdateRule.forServers(servers, steps);
        List<NodeInfo> peers = new PeerWaiter(session.client(), clock).await(workers, serverCalls.waitTimeout(),
                serverCalls.waitInterval());
        RSocketRingLink link = new RSocketRingLink(peers, rank, mailbox, session.identified(connections), serverCalls.requestTimeout(),
                TensorChunker.DEFAULT_CHUNK_BYTES);
        log.info("Worker-local parameters {} are averaged by a ring AllReduce over {} workers {} and updated with the "
                        + "servers' {}", model.localParams(), workers,
                peers.stream().map(NodeInfo::rsocketEndpoint).toList(), optimizer.describe());
        return new AllReduceParameterSync(model, optimizer, new RingAllReduce(link), link);
    }
}

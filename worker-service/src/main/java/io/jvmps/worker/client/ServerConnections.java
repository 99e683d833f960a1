package io.jvmps.worker.client;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.protocol.ServerDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.util.MimeTypeUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One multiplexed RSocket connection per server, indexed by server rank. Connections are made
 * lazily by the requester and re-made on the next request after a loss. Thread-safe once built.
 */
public class ServerConnections implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServerConnections.class);

    private final List<NodeInfo> servers;
    private final List<RSocketRequester> requesters;

    /**
     * @param builder requester builder (strategies and codecs from Spring)
     * @param servers the servers, one per rank, sorted by rank
     */
    public ServerConnections(RSocketRequester.Builder builder, List<NodeInfo> servers) {
        this(builder, servers, TcpClients.PLAIN);
    }

    /**
     * @param builder requester builder (strategies and codecs from Spring)
     * @param servers the servers, one per rank, sorted by rank
     * @param tcp     plain or TLS connections
     */
    public ServerConnections(RSocketRequester.Builder builder, List<NodeInfo> servers, TcpClients tcp) {
        this.servers = List.copyOf(servers);
        this.requesters = new ArrayList<>();
        for (NodeInfo server : servers) {
            requesters.add(builder.dataMimeType(MimeTypeUtils.APPLICATION_JSON)
                    .transport(tcp.transport(server.host(), server.rsocketPort())));
        }
    }

    /** @return number of servers */
    public int size() {
        return servers.size();
    }

    /** @return the requester of a server rank */
    public RSocketRequester requester(int rank) {
        return requesters.get(rank);
    }

    /** @return the server of a rank */
    public NodeInfo server(int rank) {
        return servers.get(rank);
    }

    /**
     * Asks every server for its status, to check it answers.
     *
     * @param timeout per server
     * @return endpoints that did not answer, with the reason
     */
    public List<String> probe(Duration timeout) {
        List<String> failed = new ArrayList<>();
        for (int r = 0; r < servers.size(); r++) {
            try {
                requesters.get(r).route(Routes.SERVER_STATUS).retrieveMono(String.class).block(timeout);
            } catch (RuntimeException e) {
                if (e instanceof io.rsocket.exceptions.RejectedSetupException) {
                    throw new PsException(ErrorCode.UNAUTHENTICATED, "server " + servers.get(r).rsocketEndpoint()
                            + " refused this worker's connection: " + e.getMessage());
                }
                failed.add(servers.get(r).rsocketEndpoint() + " (" + e.getMessage() + ")");
            }
        }
        return failed;
    }

    /**
     * Asks every server for its training semantics and checks they all agree.
     *
     * @param timeout per server
     * @return the semantics (of server 0; all are equal)
     * @throws PsException INVALID_ARGUMENT naming the servers that disagree
     */
    public ServerDescription describe(Duration timeout) {
        List<ServerDescription> all = new ArrayList<>();
        for (int r = 0; r < servers.size(); r++) {
            all.add(requesters.get(r).route(Routes.SERVER_DESCRIBE).retrieveMono(ServerDescription.class)
                    .block(timeout));
        }
        for (ServerDescription d : all) {
            if (!d.sameSemantics(all.get(0))) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "servers disagree on the training semantics: "
                        + all.get(0) + " vs " + d);
            }
        }
        return all.get(0);
    }

    /** @return the server set these connections reach: node ids by rank, comma-separated */
    public String serverSet() {
        return servers.stream().map(NodeInfo::nodeId).collect(java.util.stream.Collectors.joining(","));
    }

    @Override
    public void close() {
        for (RSocketRequester requester : requesters) {
            try {
                requester.dispose();
            } catch (RuntimeException e) {
                log.debug("dispose failed: {}", e.getMessage());
            }
        }
    }

    /**
     * Names the server and route in a failed request's error, keeping its code: remote errors keep the
     * server's {@code [CODE]}, a deadline becomes TIMEOUT, a lost connection NOT_READY.
     *
     * @return the error to raise
     */
    public Throwable translate(int server, String route, Throwable e, Duration timeout) {
        String where = "server " + server + " (" + servers.get(server).rsocketEndpoint() + ") on " + route + ": ";
        if (e instanceof PsException ps) {
            return new PsException(ps.code(), where + ps.detail());
        }
        if (e instanceof io.rsocket.exceptions.ApplicationErrorException remote) {
            PsException ps = PsException.fromRemoteMessage(remote.getMessage());
            return new PsException(ps.code(), where + ps.detail());
        }
        if (e instanceof java.util.concurrent.TimeoutException) {
            return new PsException(ErrorCode.TIMEOUT, where + "no answer within " + timeout);
        }
        return new PsException(ErrorCode.NOT_READY, where + e);
    }
}

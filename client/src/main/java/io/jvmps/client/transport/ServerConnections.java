package io.jvmps.client.transport;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.core.RSocketClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One multiplexed RSocket connection per server, indexed by server rank. Each presents the cluster secret in
 * its SETUP frame and declares JSON data with composite metadata (what the servers' responders read);
 * connections are made lazily on the first request and re-made on the next request after a loss. A
 * connection counts as lost after {@link ConnectionSettings#lossTimeout()} without a frame from the server
 * (keep-alive frames every fifth of it). Control requests go as JSON ({@link #callAll}); the data plane
 * sends raw routed payloads on {@link #rsocket}. Thread-safe once built.
 */
public class ServerConnections implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServerConnections.class);
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();
    private static final String JSON_MIME = "application/json";

    private final List<NodeInfo> servers;
    private final List<RSocketClient> clients;
    private final RoutedPayloads routed = new RoutedPayloads();

    /**
     * @param servers  the servers, one per rank, sorted by rank
     * @param settings secret, TCP or TLS, loss timeout
     */
    public ServerConnections(List<NodeInfo> servers, ConnectionSettings settings) {
        this.servers = List.copyOf(servers);
        this.clients = new ArrayList<>();
        for (NodeInfo server : servers) {
            clients.add(settings.connect(server.host(), server.rsocketPort(), JSON_MIME));
        }
    }

    /** @return number of servers */
    public int size() {
        return servers.size();
    }

    /** @return the raw RSocket client of a server rank (connects on first use) */
    public RSocketClient rsocket(int rank) {
        return clients.get(rank);
    }

    /** @return the routed-payload factory shared by this set's requests */
    public RoutedPayloads routed() {
        return routed;
    }

    /** @return the server of a rank */
    public NodeInfo server(int rank) {
        return servers.get(rank);
    }

    /**
     * One JSON request-response to one server.
     *
     * @param body   the request (encoded as JSON), or null for none
     * @param answer the answer's type (decoded from JSON); {@code String} gives the raw text
     * @return the answer, or an error translated by {@link #translate}
     */
    public <T> Mono<T> call(int server, String route, Object body, Class<T> answer, Duration timeout) {
        return Mono.defer(() -> {
                    ByteBuf data = body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(JSON.writeValueAsBytes(body));
                    return clients.get(server).requestResponse(Mono.just(routed.first(route, data)));
                })
                .switchIfEmpty(Mono.error(() -> new PsException(ErrorCode.INTERNAL, "no answer")))
                .map(payload -> {
                    try {
                        return decode(payload, answer);
                    } finally {
                        payload.release();
                    }
                })
                .timeout(timeout)
                .onErrorMap(e -> translate(server, route, e, timeout));
    }

    /**
     * The same JSON request to every server in parallel.
     *
     * @return each server's answer, by rank
     * @throws PsException the first server's error, naming it
     */
    public <T> List<T> callAll(String route, Object body, Class<T> answer, Duration timeout) {
        return Flux.range(0, servers.size())
                .flatMapSequential(server -> call(server, route, body, answer, timeout))
                .collectList()
                .block(timeout.plusSeconds(5));
    }

    @SuppressWarnings("unchecked")
    private static <T> T decode(Payload payload, Class<T> type) {
        if (type == String.class) {
            return (T) payload.getDataUtf8();
        }
        try {
            return JSON.readValue(payload.getDataUtf8(), type);
        } catch (RuntimeException e) {
            throw new PsException(ErrorCode.INTERNAL, "unreadable " + type.getSimpleName() + " answer: " + e.getMessage());
        }
    }

    /**
     * Asks every server for its status, to check it answers.
     *
     * @param timeout per server
     * @return endpoints that did not answer, with the reason
     * @throws PsException UNAUTHENTICATED when a server refused the connection (wrong cluster secret or node
     *                     identity); a server that could not check the identity yet ({@code NOT_READY}) is only
     *                     listed as not answering
     */
    public List<String> probe(Duration timeout) {
        List<String> failed = new ArrayList<>();
        for (int r = 0; r < servers.size(); r++) {
            try {
                clients.get(r).requestResponse(Mono.fromSupplier(() -> routed.first(Routes.SERVER_STATUS,
                        Unpooled.EMPTY_BUFFER))).doOnNext(Payload::release).block(timeout);
            } catch (RuntimeException e) {
                Throwable cause = reactor.core.Exceptions.unwrap(e);
                if (cause instanceof io.rsocket.exceptions.RejectedSetupException
                        && PsException.fromRemoteMessage(cause.getMessage()).code() != ErrorCode.NOT_READY) {
                    throw new PsException(ErrorCode.UNAUTHENTICATED, "server " + servers.get(r).rsocketEndpoint()
                            + " refused this worker's connection: " + cause.getMessage());
                }
                failed.add(servers.get(r).rsocketEndpoint() + " (" + cause.getMessage() + ")");
            }
        }
        return failed;
    }

    /** @return the server set these connections reach: node ids by rank, comma-separated */
    public String serverSet() {
        return servers.stream().map(NodeInfo::nodeId).collect(java.util.stream.Collectors.joining(","));
    }

    @Override
    public void close() {
        for (RSocketClient client : clients) {
            try {
                client.dispose();
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
        if (e instanceof io.rsocket.exceptions.RejectedSetupException rejected) {
            PsException ps = PsException.fromRemoteMessage(rejected.getMessage());
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

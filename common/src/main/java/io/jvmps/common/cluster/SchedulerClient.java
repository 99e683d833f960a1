package io.jvmps.common.cluster;

import io.jvmps.common.protocol.ErrorBody;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.NodeToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Blocking client of the scheduler's REST API ({@code /api/v1/...}), used by servers and workers.
 * Built on the JDK HTTP client so that it needs no Spring. Every call has a request timeout; a
 * scheduler that cannot be reached raises {@link ErrorCode#NOT_READY}, an error answer raises the
 * code the scheduler sent ({@link ErrorCode#UNAUTHENTICATED} for a wrong secret or node token).
 * <p>The client remembers the node token of every registration it made ({@link RegisterResponse#nodeToken()}) and
 * sends it ({@link NodeToken#HTTP_HEADER}) on every call it makes in that node's name: heartbeats, leaving, reports,
 * leases, failures, and a re-registration under that id. Thread-safe.
 */
public final class SchedulerClient {
    private final URI base;
    private final Duration timeout;
    private final HttpClient http;
    private final JsonMapper json;
    private final ClusterSecret secret;
    private final java.util.Map<String, String> tokens = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param host    scheduler host
     * @param port    scheduler HTTP port
     * @param timeout per-request timeout
     * @param secret  the cluster secret, sent with every request ({@code Authorization: Bearer ...})
     */
    public SchedulerClient(String host, int port, Duration timeout, ClusterSecret secret) {
        this(host, port, timeout, secret, null);
    }

    /**
     * @param host    scheduler host
     * @param port    scheduler HTTP port
     * @param timeout per-request timeout
     * @param secret  the cluster secret, sent with every request
     * @param tls     HTTPS with this context (trusting the scheduler's certificate), or null for plain HTTP
     */
    public SchedulerClient(String host, int port, Duration timeout, ClusterSecret secret, javax.net.ssl.SSLContext tls) {
        this.secret = java.util.Objects.requireNonNull(secret, "secret");
        this.base = URI.create((tls == null ? "http://" : "https://") + host + ":" + port);
        this.timeout = timeout;
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1);
        this.http = (tls == null ? client : client.sslContext(tls)).build();
        this.json = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();   // fields added later read as 0
    }

    /** @return the scheduler's base URI */
    public URI base() {
        return base;
    }

    /** Registers a node; see {@code POST /api/v1/nodes}. */
    public RegisterResponse register(RegisterRequest request) {
        RegisterResponse answer = send("POST", "/api/v1/nodes", request, RegisterResponse.class,
                request == null ? null : request.previousNodeId());
        if (answer != null && answer.nodeId() != null && answer.nodeToken() != null) {
            tokens.put(answer.nodeId(), answer.nodeToken());
        }
        return answer;
    }

    /** @return the node token the scheduler answered this client's registration of {@code nodeId}, if any */
    public java.util.Optional<String> nodeToken(String nodeId) {
        return java.util.Optional.ofNullable(nodeId == null ? null : tokens.get(nodeId));
    }

    /** Sends a heartbeat and returns the current view; see {@code PUT /api/v1/nodes/{id}/heartbeat}. */
    public ClusterView heartbeat(String nodeId) {
        return heartbeat(nodeId, null);
    }

    /**
     * Sends a server's heartbeat with what it reports about itself (the dashboard's servers panel).
     *
     * @param vitals the server's state now, or null to send none
     * @return the current view
     */
    public ClusterView heartbeat(String nodeId, io.jvmps.common.protocol.ServerVitals vitals) {
        return send("PUT", "/api/v1/nodes/" + nodeId + "/heartbeat", vitals, ClusterView.class, nodeId);
    }

    /** @return the current cluster view */
    public ClusterView cluster() {
        return send("GET", "/api/v1/cluster", null, ClusterView.class);
    }

    /**
     * Opens {@code GET /api/v1/cluster/stream} (server-sent events of cluster views).
     *
     * @return the open event stream; the caller reads it (see {@link ClusterViewEvents}) and closes it
     * @throws PsException NOT_READY when the scheduler cannot be reached, or the code it answered
     */
    public java.io.InputStream openClusterStream() {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/api/v1/cluster/stream"))
                .header("Accept", "text/event-stream")
                .header(ClusterSecret.HTTP_HEADER, secret.headerValue()).GET().build();
        HttpResponse<java.io.InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new PsException(ErrorCode.NOT_READY, "scheduler at " + base + " unreachable: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PsException(ErrorCode.NOT_READY, "interrupted while calling scheduler at " + base);
        }
        if (response.statusCode() != 200) {
            try (java.io.InputStream body = response.body()) {
                throw new PsException(ErrorCode.NOT_READY, "GET /api/v1/cluster/stream answered HTTP "
                        + response.statusCode() + ": " + new String(body.readNBytes(512),
                        java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new PsException(ErrorCode.NOT_READY, "GET /api/v1/cluster/stream answered HTTP "
                        + response.statusCode());
            }
        }
        return response.body();
    }

    /** @return the cluster view in this JSON text (a {@code view} event's data) */
    public ClusterView parseView(String jsonText) {
        return json.readValue(jsonText, ClusterView.class);
    }

    /** Marks a node as finished; it then no longer counts as alive or dead. */
    public void leave(String nodeId) {
        send("DELETE", "/api/v1/nodes/" + nodeId, null, Void.class, nodeId);
    }

    /**
     * Marks a node that is going away because it failed as DEAD at once, so that a replacement can take
     * its rank without waiting for the heartbeat timeout.
     */
    public void leaveFailed(String nodeId) {
        send("DELETE", "/api/v1/nodes/" + nodeId + "?failed=true", null, Void.class, nodeId);
    }

    /** Posts a worker's progress. */
    public void reportProgress(ProgressReport report) {
        send("POST", "/api/v1/progress", report, Void.class, report.nodeId());
    }

    /** Posts a worker's final evaluation. */
    public void reportResult(ResultReport report) {
        send("POST", "/api/v1/results", report, Void.class, report.nodeId());
    }

    /** Records the partition the worker finished (if any) and leases the next one (dynamic data sharding). */
    public io.jvmps.common.protocol.PartitionLease nextPartition(io.jvmps.common.protocol.PartitionRequest request) {
        return send("POST", "/api/v1/data/partitions", request, io.jvmps.common.protocol.PartitionLease.class,
                request.nodeId());
    }

    /** Reports that the job cannot go on; the scheduler marks it FAILED with the first reason it gets. */
    public void reportJobFailure(io.jvmps.common.protocol.JobFailure failure) {
        send("POST", "/api/v1/job/failure", failure, Void.class, failure.nodeId());
    }

    /**
     * Asks the scheduler whether {@code token} is the node token of {@code nodeId} (a server checking who opened a
     * connection to it); see {@code POST /api/v1/nodes/{id}/identity}.
     *
     * @return the node as the scheduler has it (role, rank, state)
     * @throws PsException UNAUTHENTICATED when the token is not that node's, UNKNOWN_KEY for an unknown id
     */
    public NodeInfo verifyNode(String nodeId, String token) {
        return sendWithToken("POST", "/api/v1/nodes/" + nodeId + "/identity", null, NodeInfo.class, token);
    }

    /** @return the job status */
    public JobStatus job() {
        return send("GET", "/api/v1/job", null, JobStatus.class);
    }

    private <T> T send(String method, String path, Object body, Class<T> type) {
        return send(method, path, body, type, null);
    }

    /** @param caller the node the call is made in the name of (its token is sent), or null */
    private <T> T send(String method, String path, Object body, Class<T> type, String caller) {
        return sendWithToken(method, path, body, type, caller == null ? null : tokens.get(caller));
    }

    private <T> T sendWithToken(String method, String path, Object body, Class<T> type, String token) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Accept", "application/json")
                .header(ClusterSecret.HTTP_HEADER, secret.headerValue());
        if (token != null) {
            builder.header(NodeToken.HTTP_HEADER, token);
        }
        if (body != null) {
            builder.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        } else {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<byte[]> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new PsException(ErrorCode.NOT_READY, "scheduler at " + base + " unreachable: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PsException(ErrorCode.NOT_READY, "interrupted while calling scheduler at " + base);
        }
        if (response.statusCode() >= 400) {
            throw toException(method, path, response);
        }
        if (type == Void.class || response.body().length == 0) {
            return null;
        }
        return json.readValue(response.body(), type);
    }

    private PsException toException(String method, String path, HttpResponse<byte[]> response) {
        try {
            ErrorBody err = json.readValue(response.body(), ErrorBody.class);
            if (err.code() != null) {
                return new PsException(ErrorCode.valueOf(err.code()), err.message());
            }
        } catch (RuntimeException notOurs) {
            // fall through: not an ErrorBody
        }
        return new PsException(ErrorCode.INTERNAL, method + " " + path + " answered HTTP " + response.statusCode()
                + ": " + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
}

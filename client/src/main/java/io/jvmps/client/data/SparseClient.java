package io.jvmps.client.data;

import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sparse.SparseCodec;
import io.jvmps.common.sparse.SparsePull;
import io.jvmps.common.sparse.UpdateKind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sparse data plane: rows of sparse tables (declared first with
 * {@link io.jvmps.client.control.ControlClient#declareSparse}) by id, each id sent to the server that
 * owns it, requests to all servers in parallel, each frame at most {@code maxFrameBytes}. Blocking
 * calls with a deadline; errors are {@link PsException}s naming the server. Pull and push go as raw RSocket
 * payloads (no Spring codecs), like {@link DenseClient}'s. Thread-safe.
 */
public class SparseClient {
    private static final int HEADER_ROOM = 256;
    /** Most requests of one call in flight at once (each at most {@code maxFrameBytes}). */
    private static final int MAX_IN_FLIGHT = 32;

    private final ServerConnections connections;
    private final int rank;
    private final Duration timeout;
    private final int maxFrameBytes;
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        private final AtomicLong bytesPushed = new AtomicLong();
    private final AtomicLong bytesPulled = new AtomicLong();

    /**
     * @param connections   one connection per server rank
     * @param rank          this worker's rank
     * @param timeout       deadline of one call
     * @param maxFrameBytes largest frame sent or asked for (below the servers' inbound cap)
     */
    public SparseClient(ServerConnections connections, int rank, Duration timeout, int maxFrameBytes) {
        this.connections = connections;
        this.rank = rank;
        this.timeout = timeout;
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * One table's rows in a call over several tables: {@code ids} and {@code ids.length * dim} floats of
     * {@code values}, row {@code i} at {@code i * dim} (filled by a pull, sent by a push).
     *
     * @param table  the table's name
     * @param dim    floats per row
     * @param ids    the rows' ids (distinct for a pull)
     * @param values the rows
     */
    public record Rows(String table, int dim, long[] ids, float[] values) {
    }

    /**
     * Reads rows.
     *
     * @param ids distinct ids
     * @param out receives {@code ids.length * dim} floats, row {@code i} at {@code i * dim}
     */
    public void pull(String table, int dim, long[] ids, float[] out) {
        pull(List.of(new Rows(table, dim, ids, out)));
    }

    /**
     * Reads the rows of several tables with every request in flight at once (one round trip for a step's tables,
     * not one per table).
     *
     * @param tables each table's distinct ids and where its rows go
     */
    public void pull(List<Rows> tables) {
        Flux.fromIterable(tables)
                .flatMapIterable(t -> RowSplit.of(t.ids(), connections.size(), maxRows(t.dim())).stream()
                        .map(part -> pullPart(t.table(), t.dim(), t.ids(), part, t.values())).toList())
                .flatMap(part -> part, inFlight(tables.size()))
                .then()
                .block(timeout.plusSeconds(5));
    }

    /**
     * Sends row gradients or deltas; returns once every owning server applied its rows.
     *
     * @param ids    ids; repeats allowed (servers sum them)
     * @param values {@code ids.length * dim} floats
     */
    public void push(String table, int dim, long step, UpdateKind kind, long[] ids, float[] values) {
        push(step, kind, List.of(new Rows(table, dim, ids, values)));
    }

    /**
     * Sends the rows of several tables with every request in flight at once; returns once every owning server
     * applied its rows of every table.
     *
     * @param tables each table's ids (repeats allowed) and rows
     */
    public void push(long step, UpdateKind kind, List<Rows> tables) {
        Flux.fromIterable(tables)
                .flatMapIterable(t -> RowSplit.of(t.ids(), connections.size(), maxRows(t.dim())).stream()
                        .map(part -> pushPart(t.table(), t.dim(), step, kind, t.ids(), t.values(), part)).toList())
                .flatMap(part -> part, inFlight(tables.size()))
                .then()
                .block(timeout.plusSeconds(5));
    }

    /** @return requests in flight at once: two per server and table, at most {@value #MAX_IN_FLIGHT} */
    private int inFlight(int tables) {
        return Math.min(MAX_IN_FLIGHT, 2 * connections.size() * Math.max(1, tables));
    }

    /** @return float32 bytes pushed so far */
    public long bytesPushed() {
        return bytesPushed.get();
    }

    /** @return float32 bytes pulled so far */
    public long bytesPulled() {
        return bytesPulled.get();
    }

    private int maxRows(int dim) {
        return Math.max(1, Math.min(SparseCodec.MAX_ROWS, (maxFrameBytes - HEADER_ROOM) / (8 + 4 * dim)));
    }

    private Mono<Void> pullPart(String table, int dim, long[] ids, RowSplit part, float[] out) {
        return Mono.defer(() -> {
            long[] partIds = part.ids(ids);
            ByteBuf request = SparseCodec.encodePull(alloc, new SparsePull(table, rank, partIds));
            return connections.rsocket(part.server())
                    .requestResponse(Mono.just(connections.routed().first(Routes.SPARSE_PULL, request)))
                    .map(answer -> {
                        try {
                            // straight from the answer into the caller's rows, each at its position
                            SparseCodec.decodeRowsInto(answer.sliceData(), dim, part.positions(), out);
                            bytesPulled.addAndGet((long) partIds.length * dim * 4);
                            return partIds.length;
                        } finally {
                            answer.release();
                        }
                    })
                    .switchIfEmpty(Mono.error(() -> new PsException(ErrorCode.INTERNAL, "no rows in the answer")))
                    .timeout(timeout)
                    .onErrorMap(e -> connections.translate(part.server(), Routes.SPARSE_PULL, e, timeout))
                    .then();
        });
    }

    /** The acknowledgement's arrival is what counts (its content is not decoded); errors come back as errors. */
    private Mono<Void> pushPart(String table, int dim, long step, UpdateKind kind, long[] ids, float[] values,
                                RowSplit part) {
        return Mono.defer(() -> {
            ByteBuf request = SparseCodec.encodePush(alloc, table, rank, step, kind, dim, ids, values, part.positions());
            bytesPushed.addAndGet((long) part.positions().length * dim * 4);
            return connections.rsocket(part.server())
                    .requestResponse(Mono.just(connections.routed().first(Routes.SPARSE_PUSH, request)))
                    .switchIfEmpty(Mono.error(() -> new PsException(ErrorCode.INTERNAL, "no push acknowledgement")))
                    .doOnNext(io.rsocket.Payload::release)
                    .timeout(timeout)
                    .onErrorMap(e -> connections.translate(part.server(), Routes.SPARSE_PUSH, e, timeout))
                    .then();
        });
    }
}

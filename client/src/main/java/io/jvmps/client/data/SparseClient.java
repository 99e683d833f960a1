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
 * owns it, requests to all servers in parallel, each payload at most {@code maxFrameBytes} (a call over several
 * tables sends each server their frames back to back in one payload). Blocking
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
        send(requests(tables), this::pullRequest, Routes.SPARSE_PULL);
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
        send(requests(tables), pieces -> pushRequest(step, kind, pieces), Routes.SPARSE_PUSH);
    }

    /**
     * Sends the requests, all in flight at once, and waits for every answer. The deadline is the call's, one timer
     * for the call rather than one per request; when it passes, the error names a server that had not answered.
     */
    private void send(List<List<Piece>> requests, java.util.function.Function<List<Piece>, Mono<Void>> request,
                      String route) {
        java.util.concurrent.atomic.AtomicIntegerArray unanswered =
                new java.util.concurrent.atomic.AtomicIntegerArray(connections.size());
        for (List<Piece> r : requests) {
            unanswered.incrementAndGet(r.get(0).part().server());
        }
        Flux.fromIterable(requests)
                .flatMap(r -> request.apply(r)
                        .doOnSuccess(done -> unanswered.decrementAndGet(r.get(0).part().server())), MAX_IN_FLIGHT)
                .then()
                .timeout(timeout)
                .onErrorMap(java.util.concurrent.TimeoutException.class, e -> {
                    int server = 0;
                    while (server < unanswered.length() - 1 && unanswered.get(server) == 0) {
                        server++;
                    }
                    return connections.translate(server, route, e, timeout);
                })
                .block(timeout.plusSeconds(5));
    }

    /** One table's rows for one server, in one frame. */
    private record Piece(Rows rows, RowSplit part) {
        /** @return a bound on the bytes of its frame (ids and rows, and room for the header) */
        long bytes() {
            return HEADER_ROOM + (long) part.positions().length * (8 + 4L * rows.dim());
        }
    }

    /**
     * @return the call's requests: per server, its tables' frames packed into payloads of at most
     * {@code maxFrameBytes} (a step's tables usually make one request per server)
     */
    private List<List<Piece>> requests(List<Rows> tables) {
        List<List<Piece>> byServer = new java.util.ArrayList<>();
        for (int s = 0; s < connections.size(); s++) {
            byServer.add(new java.util.ArrayList<>());
        }
        for (Rows t : tables) {
            for (RowSplit part : RowSplit.of(t.ids(), connections.size(), maxRows(t.dim()))) {
                byServer.get(part.server()).add(new Piece(t, part));
            }
        }
        List<List<Piece>> requests = new java.util.ArrayList<>();
        for (List<Piece> pieces : byServer) {
            List<Piece> current = new java.util.ArrayList<>();
            long bytes = 0;
            for (Piece piece : pieces) {
                if (!current.isEmpty() && bytes + piece.bytes() > maxFrameBytes) {
                    requests.add(current);
                    current = new java.util.ArrayList<>();
                    bytes = 0;
                }
                current.add(piece);
                bytes += piece.bytes();
            }
            if (!current.isEmpty()) {
                requests.add(current);
            }
        }
        return requests;
    }

    /** @return the frames back to back in one buffer (the frames' references pass to it) */
    private ByteBuf payload(List<ByteBuf> frames) {
        if (frames.size() == 1) {
            return frames.get(0);
        }
        return alloc.compositeBuffer(frames.size()).addComponents(true, frames);
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

    private Mono<Void> pullRequest(List<Piece> pieces) {
        int server = pieces.get(0).part().server();
        return Mono.defer(() -> {
            List<ByteBuf> frames = new java.util.ArrayList<>(pieces.size());
            for (Piece p : pieces) {
                frames.add(SparseCodec.encodePull(alloc, new SparsePull(p.rows().table(), rank, p.part().ids(p.rows().ids()))));
            }
            return connections.rsocket(server)
                    .requestResponse(Mono.just(connections.routed().first(Routes.SPARSE_PULL, payload(frames))))
                    .map(answer -> {
                        try {
                            // one rows frame per piece, in order: straight into the caller's rows at their positions
                            ByteBuf rest = answer.sliceData();
                            for (Piece p : pieces) {
                                int dim = p.rows().dim();
                                SparseCodec.decodeRowsInto(SparseCodec.nextFrame(rest), dim, p.part().positions(),
                                        p.rows().values());
                                bytesPulled.addAndGet((long) p.part().positions().length * dim * 4);
                            }
                            if (rest.isReadable()) {
                                throw new PsException(ErrorCode.MALFORMED_FRAME, "sparse rows: " + rest.readableBytes()
                                        + " bytes after the " + pieces.size() + " frames asked for");
                            }
                            return pieces.size();
                        } finally {
                            answer.release();
                        }
                    })
                    .switchIfEmpty(Mono.error(() -> new PsException(ErrorCode.INTERNAL, "no rows in the answer")))
                    .onErrorMap(e -> connections.translate(server, Routes.SPARSE_PULL, e, timeout))
                    .then();
        });
    }

    /** The acknowledgement's arrival is what counts (its content is not decoded); errors come back as errors. */
    private Mono<Void> pushRequest(long step, UpdateKind kind, List<Piece> pieces) {
        int server = pieces.get(0).part().server();
        return Mono.defer(() -> {
            List<ByteBuf> frames = new java.util.ArrayList<>(pieces.size());
            for (Piece p : pieces) {
                Rows t = p.rows();
                frames.add(SparseCodec.encodePush(alloc, t.table(), rank, step, kind, t.dim(), t.ids(), t.values(),
                        p.part().positions()));
                bytesPushed.addAndGet((long) p.part().positions().length * t.dim() * 4);
            }
            return connections.rsocket(server)
                    .requestResponse(Mono.just(connections.routed().first(Routes.SPARSE_PUSH, payload(frames))))
                    .switchIfEmpty(Mono.error(() -> new PsException(ErrorCode.INTERNAL, "no push acknowledgement")))
                    .doOnNext(io.rsocket.Payload::release)
                    .onErrorMap(e -> connections.translate(server, Routes.SPARSE_PUSH, e, timeout))
                    .then();
        });
    }
}

package io.jvmps.client.data;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.SparseCodec;
import io.jvmps.common.sparse.SparsePull;
import io.jvmps.common.sparse.SparsePush;
import io.jvmps.common.sparse.UpdateKind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.util.ByteBufPayload;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SparseClient} against a raw server: a call over several tables is one request per server with the tables'
 * frames back to back, the rows answering it land at each table's positions, and a server that never answers ends
 * the call at its deadline with an error naming that server.
 */
class SparseClientTest {
    private final List<Integer> framesPerRequest = new CopyOnWriteArrayList<>();
    private final List<SparsePush> pushed = new CopyOnWriteArrayList<>();
    private RawServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCallOverSeveralTablesIsOneRequestAndEachTableGetsItsRows() {
        start(false);
        SparseClient client = new SparseClient(server.connections(), 0, Duration.ofSeconds(10), 1 << 20);
        float[] a = new float[3 * 2];
        float[] b = new float[2];
        client.pull(List.of(new SparseClient.Rows("a", 2, new long[] {5, 6, 7}, a),
                new SparseClient.Rows("b", 1, new long[] {9, 4}, b)));
        assertThat(framesPerRequest).containsExactly(2);
        // the raw server answers row id with {id, id + 0.5, ...}
        assertThat(a).containsExactly(5, 5.5f, 6, 6.5f, 7, 7.5f);
        assertThat(b).containsExactly(9, 4);

        client.push(3, UpdateKind.DELTA, List.of(new SparseClient.Rows("a", 2, new long[] {1}, new float[] {1, 2}),
                new SparseClient.Rows("b", 1, new long[] {2, 2}, new float[] {3, 4})));
        assertThat(framesPerRequest).containsExactly(2, 2);
        assertThat(pushed).extracting(SparsePush::table).containsExactly("a", "b");
        assertThat(pushed.get(1).values()).containsExactly(3, 4);
        assertThat(pushed).allSatisfy(p -> assertThat(p.step()).isEqualTo(3));
    }

    @Test
    void aServerThatNeverAnswersEndsTheCallAtItsDeadlineNamingIt() {
        start(true);
        SparseClient client = new SparseClient(server.connections(), 0, Duration.ofMillis(300), 1 << 20);
        assertThatThrownBy(() -> client.pull("a", 1, new long[] {1}, new float[1]))
                .isInstanceOfSatisfying(PsException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT);
                    assertThat(e.detail()).startsWith("server 0 (127.0.0.1:").contains("ps.v1.sparse.pull")
                            .contains("no answer within");
                });
    }

    private void start(boolean silent) {
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload request) {
                if (silent) {
                    request.release();
                    return Mono.never();
                }
                try {
                    ByteBuf data = request.sliceData();
                    boolean push = data.getByte(data.readerIndex() + 5) == 2;
                    if (push) {
                        List<SparsePush> frames = SparseCodec.decodeAll(data, SparseCodec::decodePush);
                        framesPerRequest.add(frames.size());
                        pushed.addAll(frames);
                        return Mono.just(DefaultPayload.create("{}"));
                    }
                    List<SparsePull> pulls = SparseCodec.decodeAll(data, SparseCodec::decodePull);
                    framesPerRequest.add(pulls.size());
                    CompositeByteBuf answer = ByteBufAllocator.DEFAULT.compositeBuffer();
                    for (SparsePull pull : pulls) {
                        int dim = pull.table().equals("a") ? 2 : 1;
                        float[] rows = new float[pull.ids().length * dim];
                        for (int i = 0; i < pull.ids().length; i++) {
                            for (int k = 0; k < dim; k++) {
                                rows[i * dim + k] = pull.ids()[i] + 0.5f * k;
                            }
                        }
                        answer.addComponent(true, SparseCodec.encodeRows(ByteBufAllocator.DEFAULT, dim, rows));
                    }
                    return Mono.just(ByteBufPayload.create(answer));
                } finally {
                    request.release();
                }
            }
        };
        server = RawServer.start(SocketAcceptor.with(handler));
    }
}

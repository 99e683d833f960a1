package io.jvmps.client.data;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.Payload;
import io.rsocket.SocketAcceptor;
import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pull asks a server for a few payloads at a time, not for all of them at once: against a raw RSocket server
 * that answers one payload per slice and records the demand it receives, the pull of 24 slices must complete
 * with the right values while no single request asks for more than {@link DenseClient#PULL_WINDOW_PAYLOADS}. With an
 * unbounded demand a server would copy and queue a whole big model's snapshot ahead of the socket
 * (DenseMemoryBenchmark: +2.7 bytes per parameter for 100M parameters).
 */
class PullWindowTest {
    private static final int SLICES = 24;
    private static final int ELEMENTS = 5;

    private final List<Long> demands = new CopyOnWriteArrayList<>();

    @Test
    void aPullRequestsABoundedWindowOfPayloads() throws Exception {
        List<ParamSpec> params = new ArrayList<>();
        for (int p = 0; p < SLICES; p++) {
            params.add(new ParamSpec("p" + p, new long[] {ELEMENTS}));
        }
        ShardMap map = ShardMap.compute(params, 1);
        List<Slice> slices = map.slicesOf(0);
        assertThat(slices).hasSize(SLICES);
        INDArray[] pulled = params.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape())).toArray(INDArray[]::new);
        try (RawServer server = RawServer.start(SocketAcceptor.forRequestStream(request -> {
            request.release();
            return Flux.fromIterable(slices).map(PullWindowTest::answer).doOnRequest(demands::add);
        }))) {
            new DenseClient(server.connections(), map, 0, Duration.ofSeconds(20), 1 << 20).pull(3, pulled);
        }

        for (Slice slice : slices) {
            assertThat(pulled[slice.paramIndex()].toFloatVector()).as("param %s", slice.paramName())
                    .containsOnly(valueOf(slice.key()));
        }
        assertThat(demands).as("every REQUEST_N the server saw").isNotEmpty()
                .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(DenseClient.PULL_WINDOW_PAYLOADS));
        assertThat(demands.stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(SLICES);
    }

    private static Payload answer(Slice slice) {
        ByteBuf data = ByteBufAllocator.DEFAULT.buffer(4 * ELEMENTS);
        for (int i = 0; i < ELEMENTS; i++) {
            data.writeFloatLE(valueOf(slice.key()));
        }
        TensorChunk chunk = new TensorChunk(DType.FLOAT32, slice.key(), 3, 0, 0, new long[] {ELEMENTS}, 0, ELEMENTS, data);
        try {
            return ByteBufPayload.create(TensorChunkCodec.encode(ByteBufAllocator.DEFAULT, chunk));
        } finally {
            chunk.release();
        }
    }

    private static float valueOf(long key) {
        return (key % 1000) + 0.5f;
    }
}

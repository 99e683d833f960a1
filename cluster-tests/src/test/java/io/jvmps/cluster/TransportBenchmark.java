package io.jvmps.cluster;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.worker.client.PsClient;
import io.jvmps.worker.client.ServerConnections;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.messaging.rsocket.RSocketStrategies;
import org.springframework.util.MimeTypeUtils;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Push then pull of a 40 MB dense tensor between this JVM (as the worker) and a real server
 * process, against the same bytes sent and echoed back over a plain TCP socket on loopback.
 */
@Tag("benchmark")
class TransportBenchmark {
    private static final int ELEMENTS = 10_000_000; // 40 MB of float32
    private static final int WARMUP = 3;
    private static final int ROUNDS = 10;

    @Test
    void pushPullOf40MegabytesAgainstRawTcp() throws Exception {
        double raw = rawSocketMegabytesPerSecond();
        double ps = parameterServerMegabytesPerSecond();
        BenchmarkReport.record(String.format(Locale.ROOT,
                "40 MB push+pull: PS %.0f MB/s, raw TCP %.0f MB/s, ratio %.2f (median of %d rounds, MB = 1e6 bytes moved both ways)",
                ps, raw, ps / raw, ROUNDS));
        assertThat(ps).isPositive();
    }

    private double parameterServerMegabytesPerSecond() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        try (LocalCluster cluster = new LocalCluster("transport-benchmark")) {
            NodeProcess server = cluster.startServer(0, 1, 1, "--ps.scheduler.enabled=false",
                    "--spring.rsocket.server.port=" + port, "--ps.optimizer.type=SGD",
                    "--ps.optimizer.learning-rate=0.001");
            server.awaitLog(Pattern.compile("(?i)rsocket.*started|started ServerApplication"), Duration.ofSeconds(90));
            RSocketStrategies strategies = RSocketStrategies.builder()
                    .encoders(e -> e.add(new JacksonJsonEncoder()))
                    .decoders(d -> d.add(new JacksonJsonDecoder()))
                    .build();
            RSocketRequester.Builder builder = RSocketRequester.builder().rsocketStrategies(strategies)
                    .setupMetadata(cluster.secret(), org.springframework.util.MimeType.valueOf(
                            io.jvmps.common.security.ClusterSecret.SETUP_MIME_TYPE))
                    .dataMimeType(MimeTypeUtils.APPLICATION_JSON);
            NodeInfo node = new NodeInfo("bench", NodeRole.SERVER, 0, "127.0.0.1", port, 0, NodeState.ALIVE, 0);
            try (ServerConnections connections = new ServerConnections(builder, List.of(node))) {
                ShardMap map = ShardMap.compute(List.of(new ParamSpec("big", new long[] {ELEMENTS})), 1);
                PsClient client = new PsClient(connections, map, 0, Duration.ofMinutes(2),
                        TensorChunker.DEFAULT_CHUNK_BYTES);
                INDArray[] values = {Nd4j.rand(DataType.FLOAT, ELEMENTS)};
                INDArray[] gradient = {Nd4j.rand(DataType.FLOAT, ELEMENTS)};
                INDArray[] pulled = {Nd4j.create(DataType.FLOAT, ELEMENTS)};
                client.init(values);
                double[] rates = new double[ROUNDS];
                double[] pushMillis = new double[ROUNDS];
                double[] pullMillis = new double[ROUNDS];
                for (int round = 0; round < WARMUP + ROUNDS; round++) {
                    long start = System.nanoTime();
                    client.push(round, gradient);
                    long pushed = System.nanoTime();
                    client.pull(round + 1, pulled);
                    long end = System.nanoTime();
                    if (round >= WARMUP) {
                        rates[round - WARMUP] = 2.0 * ELEMENTS * 4 / 1e6 / ((end - start) / 1e9);
                        pushMillis[round - WARMUP] = (pushed - start) / 1e6;
                        pullMillis[round - WARMUP] = (end - pushed) / 1e6;
                    }
                }
                BenchmarkReport.record(String.format(Locale.ROOT, "40 MB push %.1f ms, pull %.1f ms (medians)",
                        BenchmarkReport.median(pushMillis), BenchmarkReport.median(pullMillis)));
                return BenchmarkReport.median(rates);
            }
        }
    }

    private static double rawSocketMegabytesPerSecond() throws Exception {
        int bytes = ELEMENTS * 4;
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread echo = new Thread(() -> {
                try (Socket peer = listener.accept()) {
                    byte[] buffer = new byte[bytes];
                    DataInputStream in = new DataInputStream(peer.getInputStream());
                    OutputStream out = peer.getOutputStream();
                    for (int round = 0; round < WARMUP + ROUNDS; round++) {
                        in.readFully(buffer);
                        out.write(buffer);
                        out.flush();
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "raw-echo");
            echo.start();
            double[] rates = new double[ROUNDS];
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
                byte[] payload = new byte[bytes];
                byte[] back = new byte[bytes];
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                for (int round = 0; round < WARMUP + ROUNDS; round++) {
                    long start = System.nanoTime();
                    out.write(payload);
                    out.flush();
                    new DataInputStream(in).readFully(back);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (round >= WARMUP) {
                        rates[round - WARMUP] = 2.0 * bytes / 1e6 / seconds;
                    }
                }
            }
            echo.join(10_000);
            return BenchmarkReport.median(rates);
        }
    }
}

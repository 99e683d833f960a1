package io.jvmps.cluster;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server's memory for N dense float parameters with ADAM (issue 14: at most 1.15 x 12N bytes, no growth over
 * 1,000 pushes). One real server process (sync, one worker: this JVM's {@link DenseClient}) holds one tensor of
 * {@code -Dmemory.params} floats (default 100M, 400 MB). Its heap is fixed and touched up front
 * ({@code -Xms = -Xmx}, {@code AlwaysPreTouch}), so what its resident set grows by after start-up is native
 * memory: values, optimizer state, receive buffers, network buffers. Reads {@code VmRSS} from
 * {@code /proc/<pid>/status} after the init, after each of {@code -Dmemory.pushes} pushes (default 1,000), and
 * after {@code -Dmemory.pulls} push-and-pull rounds (default 20, what a training step does), and reports bytes
 * per parameter at each point against 12 (values, Adam's m and v). {@code -Dmemory.push-apply} sets the server's
 * {@code ps.server.push-apply} (default WHOLE_PUSH; PER_SLICE receives through a small shared pool).
 */
@Tag("benchmark")
class DenseMemoryBenchmark {
    private static final int PARAMS = Integer.getInteger("memory.params", 100_000_000);
    private static final int PUSHES = Integer.getInteger("memory.pushes", 1_000);
    private static final int PULLS = Integer.getInteger("memory.pulls", 20);
    private static final String PUSH_APPLY = System.getProperty("memory.push-apply", "WHOLE_PUSH");

    @Test
    void adamServerMemoryPerParameter() throws Exception {
        int port = LocalCluster.freePort();
        try (LocalCluster cluster = new LocalCluster("dense-memory")) {
            NodeProcess server = cluster.startServerWithJvmFlags(0, 1, 1,
                    List.of("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-Dorg.bytedeco.javacpp.maxbytes=8g",
                            "-Dorg.bytedeco.javacpp.maxphysicalbytes=12g"),
                    "--ps.scheduler.enabled=false", "--spring.rsocket.server.port=" + port,
                    "--ps.optimizer.type=ADAM", "--ps.optimizer.learning-rate=0.0001", "--ps.server.push-apply=" + PUSH_APPLY);
            server.awaitLog(Pattern.compile("(?i)rsocket.*started|started ServerApplication"), Duration.ofSeconds(90));
            long pid = server.process().pid();
            long started = residentBytes(pid);
            NodeInfo node = new NodeInfo("bench", NodeRole.SERVER, 0, "127.0.0.1", port, 0, NodeState.ALIVE, 0);
            try (ServerConnections connections = new ServerConnections(List.of(node),
                    TransportBenchmark.connectionSettings(cluster))) {
                ShardMap map = ShardMap.compute(List.of(new ParamSpec("big", new long[] {PARAMS})), 1);
                DenseClient client = new DenseClient(connections, map, 0, Duration.ofMinutes(5), TensorChunker.DEFAULT_CHUNK_BYTES);
                INDArray[] tensor = {Nd4j.rand(DataType.FLOAT, PARAMS).subi(0.5)};
                client.init(tensor);
                record("after init", residentBytes(pid) - started);
                long step = 0;
                long afterTen = 0;
                long pushStart = System.nanoTime();
                for (int p = 1; p <= PUSHES; p++, step++) {
                    client.push(step, tensor);
                    if (p == 10) {
                        afterTen = residentBytes(pid) - started;
                    }
                    if (p == 1 || p == 10 || p % 100 == 0 || p == PUSHES) {
                        record("after push " + p, residentBytes(pid) - started);
                    }
                }
                double perPush = (System.nanoTime() - pushStart) / 1e6 / PUSHES;
                long afterPushes = residentBytes(pid) - started;
                INDArray[] pulled = {Nd4j.create(DataType.FLOAT, PARAMS)};
                for (int r = 0; r < PULLS; r++, step++) {
                    client.push(step, tensor);
                    client.pull(step + 1, pulled);
                }
                long afterPulls = residentBytes(pid) - started;
                record("after " + PULLS + " push+pull rounds", afterPulls);
                record("peak (VmHWM) over the whole run", statusBytes(pid, "VmHWM:") - started);
                BenchmarkReport.record(String.format(Locale.ROOT,
                        "dense memory, %,d ADAM params, push-apply %s: %.1f ms per push; growth from push 10 to push %d: %.1f MB;"
                                + " steady state %.2f bytes/param with pushes only (%.2fx of 12N), %.2f with pulls (%.2fx)",
                        PARAMS, PUSH_APPLY, perPush, PUSHES, (afterPushes - afterTen) / 1e6, perParam(afterPushes),
                        perParam(afterPushes) / 12, perParam(afterPulls), perParam(afterPulls) / 12));
                assertThat(Double.isFinite(pulled[0].sumNumber().doubleValue())).as("pulled values are finite").isTrue();
            }
        }
    }

    private static void record(String when, long grownBytes) throws IOException {
        BenchmarkReport.record(String.format(Locale.ROOT, "dense memory, %,d ADAM params, push-apply %s, %s: server "
                + "resident set +%.1f MB, %.2f bytes/param", PARAMS, PUSH_APPLY, when, grownBytes / 1e6, perParam(grownBytes)));
    }

    private static double perParam(long bytes) {
        return (double) bytes / PARAMS;
    }

    /** @return the process's resident set ({@code VmRSS}) in bytes */
    private static long residentBytes(long pid) throws IOException {
        return statusBytes(pid, "VmRSS:");
    }

    /** @return a byte count from {@code /proc/<pid>/status}, e.g. {@code VmRSS:} now or {@code VmHWM:} at its peak */
    private static long statusBytes(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no " + field + " in /proc/" + pid + "/status");
    }
}

package io.jvmps.cluster;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.client.data.SparseClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import io.jvmps.client.control.ControlClient;
import io.jvmps.client.transport.ConnectionSettings;
import org.springframework.messaging.rsocket.RSocketStrategies;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sparse tables on 2 real server processes, driven from this JVM with the worker's client: latency of a
 * pull of 4,096 distinct rows of dim 64 (against a dense pull of the same 1 MiB in the same run), and the
 * heap a server spends per ADAM row (against the ideal {@code d * 4 * 3} bytes).
 */
@Tag("benchmark")
class SparseBenchmark {
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final int DIM = 64;
    private static final int ROWS = 4096;
    private static final int ROUNDS = 300;
    /** Declares the tables, on the connections of the run. */
    private ControlClient control;
    private static final int MEMORY_ROWS = 400_000;
    private static final int SCALING_WORKERS = 4;
    /** The servers of the running phase, for phases that open connections of their own. */
    private List<NodeInfo> serverNodes;

    /** One phase's run on its own pair of servers. */
    @FunctionalInterface
    private interface Phase {
        void run(ServerConnections connections, SparseClient sparse, List<NodeProcess> servers,
                 List<Integer> httpPorts) throws Exception;
    }

    @Test
    void sparsePullLatencyAndMemoryPerRow() throws Exception {
        // -Dsparse.phases=latency,cpu runs some phases only (e.g. to profile one with JFR)
        java.util.Set<String> phases = java.util.Set.of(System.getProperty("sparse.phases",
                "memory,latency,cpu,scaling").split(","));
        try (LocalCluster cluster = new LocalCluster("sparse-benchmark")) {
            if (phases.contains("memory") || phases.contains("latency")) {
                onFreshServers(cluster, "a", (connections, sparse, servers, httpPorts) -> {
                    if (phases.contains("memory")) {
                        memory(sparse, servers, httpPorts);
                    }
                    if (phases.contains("latency")) {
                        latency(connections, sparse);
                    }
                });
            }
            if (phases.contains("cpu")) { // fresh servers: its dense baseline is a model of its own
                onFreshServers(cluster, "b", (connections, sparse, servers, httpPorts) ->
                        smallRequestCpu(connections, sparse, servers));
            }
            if (phases.contains("scaling")) { // ASYNC servers expecting 4 workers: no barrier between them
                onFreshServers(cluster, "c", SCALING_WORKERS, (connections, sparse, servers, httpPorts) ->
                        scaling(connections, cluster.secret()), "--ps.consistency.mode=ASYNC");
            }
        }
    }

    /** Starts 2 servers named {@code <prefix>-server-<rank>}, runs the phase against them and stops them. */
    private void onFreshServers(LocalCluster cluster, String prefix, Phase phase) throws Exception {
        onFreshServers(cluster, prefix, 1, phase);
    }

    /** Starts 2 servers for a job of {@code workers} workers, with more server arguments, runs the phase, stops them. */
    private void onFreshServers(LocalCluster cluster, String prefix, int workers, Phase phase, String... more)
            throws Exception {
        int[] ports = {LocalCluster.freePort(), LocalCluster.freePort()};
        List<NodeProcess> servers = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<String> args = new ArrayList<>(List.of("--ps.scheduler.enabled=false",
                    "--ps.server.rank=" + s, "--spring.rsocket.server.port=" + ports[s], "--ps.optimizer.type=ADAM",
                    "--ps.optimizer.learning-rate=0.001"));
            args.addAll(List.of(more));
            servers.add(cluster.startServerNamed(prefix + "-server-" + s, 2, workers, args.toArray(String[]::new)));
        }
        List<Integer> httpPorts = new ArrayList<>();
        List<NodeInfo> nodes = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            servers.get(s).awaitLog(Pattern.compile("(?i)Started ServerApplication"), Duration.ofSeconds(90));
            Matcher http = servers.get(s).awaitLog(HTTP_PORT, Duration.ofSeconds(5));
            httpPorts.add(Integer.parseInt(http.group(1)));
            nodes.add(new NodeInfo("bench-" + s, NodeRole.SERVER, s, "127.0.0.1", ports[s], 0, NodeState.ALIVE, 0));
        }
        serverNodes = nodes;
        try (ServerConnections connections = new ServerConnections(nodes,
                ConnectionSettings.plain(ClusterSecret.of(cluster.secret())))) {
            SparseClient sparse = new SparseClient(connections, 0, Duration.ofMinutes(2), 1 << 20);
            control = new ControlClient(connections, 0, Duration.ofMinutes(2));
            phase.run(connections, sparse, servers, httpPorts);
        } finally {
            for (NodeProcess server : servers) {
                server.process().destroy();
                server.process().waitFor();
            }
        }
    }

    private void latency(ServerConnections connections, SparseClient sparse) throws IOException {
        control.declareSparse(new SparseTableSpec("bench64", DIM, 1, 0.01f, "SGD"));
        int existing = 200_000;
        for (int from = 0; from < existing; from += ROWS) {
            long[] ids = new long[ROWS];
            for (int i = 0; i < ROWS; i++) {
                ids[i] = from + i;
            }
            sparse.push("bench64", DIM, 0, UpdateKind.DELTA, ids, new float[ROWS * DIM]);
        }
        SplittableRandom random = new SplittableRandom(3);
        float[] out = new float[ROWS * DIM];
        double[] sparseMillis = new double[ROUNDS];
        for (int round = -20; round < ROUNDS; round++) {
            long[] ids = random.longs(existing * 4L, 0, existing).distinct().limit(ROWS).toArray();
            long start = System.nanoTime();
            sparse.pull("bench64", DIM, ids, out);
            if (round >= 0) {
                sparseMillis[round] = (System.nanoTime() - start) / 1e6;
            }
        }
        ShardMap map = ShardMap.compute(List.of(new ParamSpec("dense1m", new long[] {ROWS * DIM})), 2);
        DenseClient dense = new DenseClient(connections, map, 0, Duration.ofMinutes(2), TensorChunker.DEFAULT_CHUNK_BYTES);
        dense.init(new INDArray[] {Nd4j.rand(DataType.FLOAT, ROWS * DIM)});
        INDArray[] into = {Nd4j.create(DataType.FLOAT, ROWS * DIM)};
        double[] denseMillis = new double[ROUNDS];
        for (int round = -20; round < ROUNDS; round++) {
            long start = System.nanoTime();
            dense.pull(0, into);
            if (round >= 0) {
                denseMillis[round] = (System.nanoTime() - start) / 1e6;
            }
        }
        // the baseline too: a dense push + pull of the same 1 MiB (a training step's round trip)
        INDArray[] gradient = {Nd4j.zeros(DataType.FLOAT, ROWS * DIM)};
        double[] roundMillis = new double[ROUNDS];
        for (int round = -20; round < ROUNDS; round++) {
            long step = round + 20;
            long start = System.nanoTime();
            dense.push(step, gradient);
            dense.pull(step + 1, into);
            if (round >= 0) {
                roundMillis[round] = (System.nanoTime() - start) / 1e6;
            }
        }
        double p50 = percentile(sparseMillis, 0.50);
        double p99 = percentile(sparseMillis, 0.99);
        double denseP50 = percentile(denseMillis, 0.50);
        double roundP50 = percentile(roundMillis, 0.50);
        BenchmarkReport.record(String.format(Locale.ROOT, "sparse pull of %d distinct rows x dim %d (1 MiB) from 2 "
                        + "servers: p50 %.2f ms, p99 %.2f ms; dense pull of the same 1 MiB: p50 %.2f ms, p99 %.2f ms; "
                        + "sparse/dense p50 ratio %.2f; dense push + pull of 1 MiB: p50 %.2f ms, sparse pull/that %.2f "
                        + "(%d rounds)", ROWS, DIM, p50, p99, denseP50,
                percentile(denseMillis, 0.99), p50 / denseP50, roundP50, p50 / roundP50, ROUNDS));
        assertThat(p50).isPositive();
    }

    /**
     * A CTR-sized lookup: a pull and a push of 256 distinct rows of dim 8 (8 KiB each way, split over the two
     * servers) per round: its wall time per round (p50, p99) against the smallest dense round over the same two
     * servers (a push and a pull of one float each, in the same run), and the servers' CPU and this JVM's (the
     * worker's side) per round, from schedstat.
     */
    private void smallRequestCpu(ServerConnections connections, SparseClient sparse, List<NodeProcess> servers)
            throws IOException {
        int dim = 8;
        int rows = 256;
        // the servers' CPU per round falls about threefold between 4,000 and 15,000 warm-up rounds (C2 at work)
        int rounds = Integer.getInteger("sparse.cpu-rounds", 15000);
        control.declareSparse(new SparseTableSpec("ctr8", dim, 3, 0.01f, "SGD"));
        SplittableRandom random = new SplittableRandom(5);
        float[] out = new float[rows * dim];
        float[] gradient = new float[rows * dim];
        Arrays.fill(gradient, 0.001f);
        long[] serverBefore = new long[servers.size()];
        long self = ProcessHandle.current().pid();
        long workerBefore = 0;
        double[] millis = new double[rounds];
        for (int round = -rounds; round < rounds; round++) {
            long[] ids = distinctIds(random, rows, 100_000);
            if (round == 0) {
                for (int s = 0; s < servers.size(); s++) {
                    serverBefore[s] = TransportBenchmark.cpuNanos(servers.get(s).process().pid());
                }
                workerBefore = TransportBenchmark.cpuNanos(self);
            }
            long start = System.nanoTime();
            sparse.pull("ctr8", dim, ids, out);
            sparse.push("ctr8", dim, 0, UpdateKind.GRADIENT, ids, gradient);
            if (round >= 0) {
                millis[round] = (System.nanoTime() - start) / 1e6;
            }
        }
        long serverNanos = 0;
        for (int s = 0; s < servers.size(); s++) {
            serverNanos += TransportBenchmark.cpuNanos(servers.get(s).process().pid()) - serverBefore[s];
        }
        long workerNanos = TransportBenchmark.cpuNanos(self) - workerBefore;
        double[] denseMillis = smallestDenseRounds(connections, rounds);
        double p50 = percentile(millis, 0.50);
        double denseP50 = percentile(denseMillis, 0.50);
        BenchmarkReport.record(String.format(Locale.ROOT, "sparse pull + push of %d rows x dim %d over 2 servers: p50 "
                        + "%.3f ms, p99 %.3f ms per round; dense push + pull of 1 float per server (8 B) over the same "
                        + "servers: p50 %.3f ms, p99 %.3f ms; sparse/dense p50 ratio %.2f; servers' CPU %.3f ms, worker "
                        + "CPU %.3f ms per sparse round (%d rounds after %d warm-up)", rows, dim, p50,
                percentile(millis, 0.99), denseP50, percentile(denseMillis, 0.99), p50 / denseP50,
                serverNanos / 1e6 / rounds, workerNanos / 1e6 / rounds, rounds, rounds));
    }

    /**
     * @return {@code rows} distinct ids below {@code range} (a random start and an odd stride coprime with the range,
     *         so they are distinct), made without boxing: the worker's CPU per round is the library's, not this loop's
     */
    static long[] distinctIds(SplittableRandom random, int rows, long range) {
        long start = random.nextLong(range);
        long stride = 7919; // prime, so coprime with 100,000 and any range it does not divide
        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = Math.floorMod(start + i * stride, range);
        }
        return ids;
    }

    /**
     * Several workers at once: {@value #SCALING_WORKERS} workers (threads of this JVM, each with its own connections
     * and rank, as separate worker processes have) each run rounds of a sparse pull and push of 256 rows of dim 8
     * and a dense push and pull of 1 MiB, all at the same time; aggregate rows and megabytes per second against one
     * worker alone on the same servers in the same run.
     */
    private void scaling(ServerConnections connections, String secret) throws Exception {
        int rounds = Integer.getInteger("sparse.scaling-rounds", 150);
        control.declareSparse(new SparseTableSpec("scale8", 8, 4, 0.01f, "SGD"));
        ShardMap map = ShardMap.compute(List.of(new ParamSpec("dense1m", new long[] {ROWS * DIM})), 2);
        new DenseClient(connections, map, 0, Duration.ofMinutes(2), TensorChunker.DEFAULT_CHUNK_BYTES)
                .init(new INDArray[] {Nd4j.rand(DataType.FLOAT, ROWS * DIM)});
        double alone = aggregateRounds(secret, map, 1, rounds, 0);
        double together = aggregateRounds(secret, map, SCALING_WORKERS, rounds, rounds); // worker 0's steps go on
        double rowsPerRound = 2 * 256;
        double megabytesPerRound = 2.0 * ROWS * DIM * 4 / 1e6;
        BenchmarkReport.record(String.format(Locale.ROOT, "%d workers x 2 servers, each round a sparse pull + push of "
                        + "256 rows x dim 8 and a dense push + pull of 1 MiB (ASYNC): %.0f rows/s and %.0f MB/s in all, "
                        + "against 1 worker alone: %.0f rows/s and %.0f MB/s; scaling %.2fx (%d rounds per worker)",
                SCALING_WORKERS, together * rowsPerRound, together * megabytesPerRound, alone * rowsPerRound,
                alone * megabytesPerRound, together / alone, rounds));
        assertThat(together).isPositive();
    }

    /**
     * @param firstStep the step of each worker's first round (a worker's dense steps must increase)
     * @return rounds per second of {@code workers} workers running {@code rounds} rounds each at once
     */
    private double aggregateRounds(String secret, ShardMap map, int workers, int rounds, long firstStep)
            throws Exception {
        List<ServerConnections> opened = new ArrayList<>();
        try {
            List<java.util.concurrent.Callable<Void>> loops = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                ServerConnections connections = new ServerConnections(serverNodes,
                        ConnectionSettings.plain(ClusterSecret.of(secret)));
                opened.add(connections);
                int rank = w;
                SparseClient sparse = new SparseClient(connections, rank, Duration.ofMinutes(2), 1 << 20);
                DenseClient dense = new DenseClient(connections, map, rank, Duration.ofMinutes(2),
                        TensorChunker.DEFAULT_CHUNK_BYTES);
                loops.add(() -> {
                    SplittableRandom random = new SplittableRandom(11 + rank);
                    float[] rows = new float[256 * 8];
                    float[] gradient = new float[256 * 8];
                    Arrays.fill(gradient, 0.001f);
                    INDArray[] denseGradient = {Nd4j.zeros(DataType.FLOAT, ROWS * DIM)};
                    INDArray[] into = {Nd4j.create(DataType.FLOAT, ROWS * DIM)};
                    for (int round = 0; round < rounds; round++) {
                        long[] ids = random.longs(256 * 4L, 0, 100_000).distinct().limit(256).toArray();
                        sparse.pull("scale8", 8, ids, rows);
                        sparse.push("scale8", 8, firstStep + round, UpdateKind.GRADIENT, ids, gradient);
                        dense.push(firstStep + round, denseGradient);
                        dense.pull(0, into);
                    }
                    return null;
                });
            }
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(workers);
            try {
                long start = System.nanoTime();
                for (java.util.concurrent.Future<Void> done : pool.invokeAll(loops)) {
                    done.get(10, java.util.concurrent.TimeUnit.MINUTES);
                }
                return (double) workers * rounds / ((System.nanoTime() - start) / 1e9);
            } finally {
                pool.shutdownNow();
            }
        } finally {
            for (ServerConnections c : opened) {
                c.close();
            }
        }
    }

    /** @return the wall times of {@code rounds} dense push + pull rounds of one float per server, after as many warm-up */
    private static double[] smallestDenseRounds(ServerConnections connections, int rounds) {
        ShardMap map = ShardMap.compute(List.of(new ParamSpec("dense8b", new long[] {2})), 2);
        DenseClient dense = new DenseClient(connections, map, 0, Duration.ofMinutes(2),
                TensorChunker.DEFAULT_CHUNK_BYTES);
        dense.init(new INDArray[] {Nd4j.zeros(DataType.FLOAT, 2)});
        INDArray[] gradient = {Nd4j.zeros(DataType.FLOAT, 2)};
        INDArray[] into = {Nd4j.create(DataType.FLOAT, 2)};
        double[] millis = new double[rounds];
        for (int round = -rounds; round < rounds; round++) {
            long step = round + rounds;
            long start = System.nanoTime();
            dense.push(step, gradient);
            dense.pull(step + 1, into);
            if (round >= 0) {
                millis[round] = (System.nanoTime() - start) / 1e6;
            }
        }
        return millis;
    }

    private void memory(SparseClient sparse, List<NodeProcess> servers, List<Integer> httpPorts) throws Exception {
        control.declareSparse(new SparseTableSpec("adam64", DIM, 2, 0.01f, "ADAM"));
        sparse.push("adam64", DIM, 0, UpdateKind.GRADIENT, new long[] {-1, -2}, new float[2 * DIM]);
        long before = heapUsed(servers, httpPorts);
        float[] gradient = new float[ROWS * DIM];
        Arrays.fill(gradient, 0.01f);
        for (int from = 0; from < MEMORY_ROWS; from += ROWS) {
            int count = Math.min(ROWS, MEMORY_ROWS - from);
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = 1_000_000_000L + from + i;
            }
            sparse.push("adam64", DIM, 0, UpdateKind.GRADIENT, ids, Arrays.copyOf(gradient, count * DIM));
        }
        long after = heapUsed(servers, httpPorts);
        double perRow = (after - before) / (double) MEMORY_ROWS;
        double ideal = DIM * 4.0 * 3;
        BenchmarkReport.record(String.format(Locale.ROOT, "ADAM sparse rows of dim %d: %d rows over 2 servers took "
                        + "%.1f MB of live primitive arrays (jcmd GC.class_histogram), %.0f bytes per row against the ideal d*4*3 = %.0f (overhead %.1f%%)",
                DIM, MEMORY_ROWS, (after - before) / 1e6, perRow, ideal, 100 * (perRow / ideal - 1)));
        assertThat(perRow).isGreaterThan(ideal * 0.9);
    }

    /**
     * Bytes of live primitive arrays ({@code float[]}, {@code long[]}, {@code int[]}: row blocks, ids, update
     * counts and the id index) on all servers, from {@code jcmd GC.class_histogram}, which runs a full GC first.
     */
    private static long heapUsed(List<NodeProcess> servers, List<Integer> httpPorts) throws Exception {
        long total = 0;
        Pattern line = Pattern.compile("^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+\\[([FJI])\\b.*$", Pattern.MULTILINE);
        for (NodeProcess server : servers) {
            Process histogram = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(server.process().pid()), "GC.class_histogram").redirectErrorStream(true).start();
            String text = new String(histogram.getInputStream().readAllBytes());
            assertThat(histogram.waitFor()).as("jcmd GC.class_histogram: " + text).isZero();
            Matcher m = line.matcher(text);
            int found = 0;
            while (m.find()) {
                total += Long.parseLong(m.group(1));
                found++;
            }
            assertThat(found).as("primitive array lines in the histogram").isPositive();
        }
        return total;
    }

    private static double percentile(double[] values, double q) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }
}

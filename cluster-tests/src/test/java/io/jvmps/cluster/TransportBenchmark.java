package io.jvmps.cluster;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import io.jvmps.client.transport.ConnectionSettings;
import org.springframework.messaging.rsocket.RSocketStrategies;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dense push and pull between this JVM (the worker's real {@link DenseClient}) and one real server process
 * (sync mode, one worker), for 4 B and 64 KB (the fixed cost of a request), 1 MB, 10 MB and 40 MB tensors, each run against a raw Java socket echo of
 * the same bytes in the same run ({@link SocketEcho}). The 40 MB case runs with SGD and with ADAM.
 * {@code -Dtransport.runs=N} (default 3) repeats every case with its own baseline; the report gives
 * each run and the median of the runs; {@code -Dtransport.case="40 MB ADAM"} runs one case. Each case first
 * warms up for {@code -Dtransport.warmup-seconds} (default 20).
 */
@Tag("benchmark")
class TransportBenchmark {
    private static final int WARMUP = 5;
    private static final long WARMUP_NANOS = Long.getLong("transport.warmup-seconds", 20) * 1_000_000_000L;
    private static final int ROUNDS = 15;
    private static final int CPU_ROUNDS = Integer.getInteger("transport.cpu-rounds", 300);
    private static final int RUNS = Integer.getInteger("transport.runs", 3);
    /** The server's {@code ps.server.push-apply}: WHOLE_PUSH (its default) or PER_SLICE. */
    private static final String PUSH_APPLY = System.getProperty("transport.push-apply", "WHOLE_PUSH");

    private record Case(String name, List<long[]> shapes, String optimizer) {
        Case(String name, int elements, String optimizer) {
            this(name, List.of(new long[] {elements}), optimizer);
        }

        int elements() {
            return shapes.stream().mapToInt(s -> (int) java.util.Arrays.stream(s).reduce(1, Math::multiplyExact)).sum();
        }
    }

    /** LeNet-5's ten parameters (247 KB of float32): what a training step pushes and pulls. */
    private static final List<long[]> LENET = List.of(new long[] {5, 5, 1, 6}, new long[] {6}, new long[] {5, 5, 6, 16},
            new long[] {16}, new long[] {400, 120}, new long[] {120}, new long[] {120, 84}, new long[] {84},
            new long[] {84, 10}, new long[] {10});

    private record Timing(double pushMs, double pullMs, double bothMs, double echoMs) {
        double ratio() {
            return echoMs / bothMs;
        }
    }

    @Test
    void pushAndPullAgainstARawSocketEcho() throws Exception {
        List<Case> cases = List.of(new Case("4 B", 1, "SGD"), new Case("64 KB", 16_000, "SGD"), new Case("LeNet", LENET, "SGD"),
                new Case("10 x 4 B", java.util.Collections.nCopies(10, new long[] {1}), "SGD"),
                new Case("1 MB", 250_000, "SGD"), new Case("10 MB", 2_500_000, "SGD"),
                new Case("40 MB", 10_000_000, "SGD"), new Case("40 MB", 10_000_000, "ADAM"));
        String only = System.getProperty("transport.case", ""); // e.g. "1 MB SGD"
        for (Case c : cases) {
            if (!only.isEmpty() && !only.equals(c.name() + " " + c.optimizer())) {
                continue;
            }
            List<Timing> runs = measure(c);
            for (int r = 0; r < runs.size(); r++) {
                Timing t = runs.get(r);
                BenchmarkReport.record(String.format(Locale.ROOT,
                        "%s %s (%s) run %d: push %.2f ms, pull %.2f ms, push+pull %.2f ms; socket echo %.2f ms; ratio %.2f",
                        c.name(), c.optimizer(), PUSH_APPLY, r + 1, t.pushMs(), t.pullMs(), t.bothMs(), t.echoMs(), t.ratio()));
            }
            BenchmarkReport.record(String.format(Locale.ROOT,
                    "%s %s (%s) median of %d runs: push %.2f ms, pull %.2f ms, push+pull %.2f ms, echo %.2f ms, ratio %.2f",
                    c.name(), c.optimizer(), PUSH_APPLY, runs.size(), median(runs, Timing::pushMs), median(runs, Timing::pullMs),
                    median(runs, Timing::bothMs), median(runs, Timing::echoMs), median(runs, Timing::ratio)));
            assertThat(runs).allSatisfy(t -> assertThat(t.bothMs()).isPositive());
        }
    }

    private List<Timing> measure(Case c) throws Exception {
        int port = LocalCluster.freePort();
        String name = "transport-" + c.name().replace(" ", "").toLowerCase(Locale.ROOT) + "-" + c.optimizer().toLowerCase(Locale.ROOT);
        try (LocalCluster cluster = new LocalCluster(name)) {
            NodeProcess server = cluster.startServerWithHeap(0, 1, 1, "-Xmx1g", "--ps.scheduler.enabled=false",
                    "--spring.rsocket.server.port=" + port, "--ps.optimizer.type=" + c.optimizer(),
                    "--ps.optimizer.learning-rate=0.0001", "--ps.server.push-apply=" + PUSH_APPLY,
                    "--ps.optimizer.threads=" + Integer.getInteger("transport.optimizer-threads", 0));
            server.awaitLog(Pattern.compile("(?i)rsocket.*started|started ServerApplication"), Duration.ofSeconds(90));
            NodeInfo node = new NodeInfo("bench", NodeRole.SERVER, 0, "127.0.0.1", port, 0, NodeState.ALIVE, 0);
            try (ServerConnections connections = new ServerConnections(List.of(node), connectionSettings(cluster))) {
                List<ParamSpec> specs = new ArrayList<>();
                for (int p = 0; p < c.shapes().size(); p++) {
                    specs.add(new ParamSpec("tensor" + p, c.shapes().get(p)));
                }
                ShardMap map = ShardMap.compute(specs, 1);
                DenseClient client = new DenseClient(connections, map, 0, Duration.ofMinutes(2),
                        TensorChunker.DEFAULT_CHUNK_BYTES);
                INDArray[] gradient = arrays(c, true);
                INDArray[] pulled = arrays(c, false);
                client.init(arrays(c, true));
                List<Timing> runs = new ArrayList<>();
                long step = 0;
                // both JVMs' JIT compilers take tens of seconds to settle on this traffic: warm up before measuring
                long warmUntil = System.nanoTime() + WARMUP_NANOS;
                for (int round = 0; round < WARMUP || System.nanoTime() < warmUntil; round++, step++) {
                    client.push(step, gradient);
                    client.pull(step + 1, pulled);
                }
                for (int run = 0; run < RUNS; run++) {
                    double echo = SocketEcho.medianRoundTripMillis(4 * c.elements(), WARMUP, ROUNDS);
                    double[] push = new double[ROUNDS];
                    double[] pull = new double[ROUNDS];
                    double[] both = new double[ROUNDS];
                    for (int round = 0; round < WARMUP + ROUNDS; round++, step++) {
                        long start = System.nanoTime();
                        client.push(step, gradient);
                        long pushed = System.nanoTime();
                        client.pull(step + 1, pulled);
                        long end = System.nanoTime();
                        if (round >= WARMUP) {
                            push[round - WARMUP] = (pushed - start) / 1e6;
                            pull[round - WARMUP] = (end - pushed) / 1e6;
                            both[round - WARMUP] = (end - start) / 1e6;
                        }
                    }
                    runs.add(new Timing(BenchmarkReport.median(push), BenchmarkReport.median(pull),
                            BenchmarkReport.median(both), echo));
                }
                // CPU per push + pull round of the server and of this JVM (the worker's side: DenseClient, its event loop,
                // and whatever else this JVM runs meanwhile), every thread of each process, from the kernel's schedstat
                long pid = server.process().pid();
                long self = ProcessHandle.current().pid();
                long serverBefore = cpuNanos(pid);
                long workerBefore = cpuNanos(self);
                for (int round = 0; round < CPU_ROUNDS; round++, step++) {
                    client.push(step, gradient);
                    client.pull(step + 1, pulled);
                }
                BenchmarkReport.record(String.format(Locale.ROOT, "%s %s (%s): server CPU %.3f ms, worker CPU %.3f ms "
                        + "per push + pull round (%d rounds)", c.name(), c.optimizer(), PUSH_APPLY,
                        (cpuNanos(pid) - serverBefore) / 1e6 / CPU_ROUNDS, (cpuNanos(self) - workerBefore) / 1e6 / CPU_ROUNDS,
                        CPU_ROUNDS));
                assertThat(Double.isFinite(pulled[pulled.length - 1].sumNumber().doubleValue())).as("pulled values are finite").isTrue();
                return runs;
            }
        }
    }

    private static INDArray[] arrays(Case c, boolean random) {
        return c.shapes().stream()
                .map(s -> random ? Nd4j.rand(DataType.FLOAT, s).subi(0.5) : Nd4j.create(DataType.FLOAT, s))
                .toArray(INDArray[]::new);
    }

    /** @return CPU time all threads of the process have run so far, from {@code /proc/<pid>/task/<tid>/schedstat} */
    static long cpuNanos(long pid) throws java.io.IOException {
        long total = 0;
        try (java.util.stream.Stream<java.nio.file.Path> tasks = java.nio.file.Files.list(
                java.nio.file.Path.of("/proc", Long.toString(pid), "task"))) {
            for (java.nio.file.Path task : tasks.toList()) {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("schedstat")).trim();
                    total += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (java.io.IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return total;
    }

    private static double median(List<Timing> runs, java.util.function.ToDoubleFunction<Timing> field) {
        return BenchmarkReport.median(runs.stream().mapToDouble(field).toArray());
    }

    /** The client library's connection settings for a cluster: its secret, plain TCP. */
    static ConnectionSettings connectionSettings(LocalCluster cluster) {
        return ConnectionSettings.plain(ClusterSecret.of(cluster.secret()));
    }
}

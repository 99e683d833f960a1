package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak drill: the main job (LeNet-5 on MNIST, 2 servers, 2 workers, SYNC) trains for 30 minutes
 * ({@code -Ddrill.minutes=N}) with pulls and pushes every step, and every 30 s each server and worker is sampled:
 * resident memory, live heap, NIO direct buffers ({@code jvm.buffer.memory.used{id=direct}}), threads and open
 * file descriptors. The live heap is what a full collection keeps: each sample first asks the JVM for one
 * ({@code jcmd <pid> GC.run}) and then reads Micrometer's {@code jvm.gc.live.data.size}, which the serial
 * collector only sets after an old-generation collection, so without it a server would read 0 all along.
 * After a 5-minute warm-up, each must stay flat, comparing the 5 minutes after the warm-up with the last 5:
 * the peak resident memory within 10 % (nd4j's native buffers make a worker's resident memory a saw-tooth;
 * a leak raises its peaks, while the median of a saw-tooth jumps with where the samples fall), the median
 * live heap within 10 % (at least 8 MiB), direct buffers within 16 MiB, threads within 3, descriptors
 * within 10. Prints a table every 5 minutes and the verdict per node.
 *
 * <p>Not part of {@code ./mvnw verify}: {@code ./mvnw -pl cluster-tests verify -Pdrill -Dit.test=SoakDrill}.
 */
@Tag("drill")
class SoakDrill {
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+) \\(http\\)");
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(30);
    private static final int WARM_UP_SAMPLES = 10;
    private static final int WINDOW = 10;

    /** One sample of one node. */
    private record Sample(long rssKiB, long liveHeapBytes, long directBytes, long threads, long fds) {
    }

    @Test
    void memoryThreadsAndDescriptorsStayFlatOverALongJob() throws Exception {
        int minutes = Integer.getInteger("drill.minutes", 30);
        try (LocalCluster cluster = new LocalCluster("soak")) {
            Map<String, NodeProcess> nodes = new LinkedHashMap<>();
            cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                nodes.put("server-" + s, cluster.startServer(s, 2, 2, "--ps.consistency.mode=SYNC",
                        "--ps.optimizer.learning-rate=0.002"));
            }
            for (int w = 0; w < 2; w++) {
                nodes.put("worker-" + w, cluster.startWorker(w, 2, 2, "--ps.worker.dataset.path=" + TestPaths.mnist(),
                        "--ps.worker.training.epochs=1000", "--ps.worker.training.batch-size=32", "--ps.worker.training.log-interval=100"));
            }
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (Map.Entry<String, NodeProcess> node : nodes.entrySet()) {
                ports.put(node.getKey(), Integer.parseInt(node.getValue().awaitLog(HTTP_PORT, Duration.ofMinutes(2))
                        .group(1)));
            }
            Map<String, List<Sample>> samples = new LinkedHashMap<>();
            nodes.keySet().forEach(name -> samples.put(name, new ArrayList<>()));
            List<String> table = new ArrayList<>();
            table.add("| minute | node | resident MiB | live heap MiB | direct MiB | threads | fds |");
            table.add("|---|---|---|---|---|---|---|");
            int total = (int) (Duration.ofMinutes(minutes).toSeconds() / SAMPLE_EVERY.toSeconds());
            for (int i = 1; i <= total; i++) {
                NodeProcess.until(SAMPLE_EVERY, () -> nodes.values().stream().anyMatch(n -> !n.process().isAlive()));
                for (Map.Entry<String, NodeProcess> node : nodes.entrySet()) {
                    assertThat(node.getValue().process().isAlive()).as(node.getKey() + " died\n"
                            + node.getValue().tail()).isTrue();
                    Sample sample = sample(node.getValue().process().pid(), ports.get(node.getKey()));
                    samples.get(node.getKey()).add(sample);
                    if (i % 10 == 0) {
                        String row = String.format(Locale.ROOT, "| %d | %s | %.0f | %.0f | %.1f | %d | %d |",
                                i * SAMPLE_EVERY.toSeconds() / 60, node.getKey(), sample.rssKiB() / 1024.0,
                                sample.liveHeapBytes() / 1048576.0, sample.directBytes() / 1048576.0, sample.threads(),
                                sample.fds());
                        table.add(row);
                        System.out.println("[drill] " + row);
                    }
                }
            }
            List<String> problems = new ArrayList<>();
            for (Map.Entry<String, List<Sample>> node : samples.entrySet()) {
                List<Sample> all = node.getValue();
                List<Sample> early = all.subList(WARM_UP_SAMPLES, Math.min(all.size(), WARM_UP_SAMPLES + WINDOW));
                List<Sample> late = all.subList(Math.max(0, all.size() - WINDOW), all.size());
                String verdict = verdict(node.getKey(), early, late, problems);
                table.add("| | " + node.getKey() + " | " + verdict + " | | | | |");
            }
            DrillReport.record(String.format(Locale.ROOT, "soak drill: %d minutes of LeNet-5 on MNIST, 2 servers, "
                    + "2 workers, SYNC; %s", minutes, problems.isEmpty() ? "flat" : "NOT flat: " + problems), table);
            assertThat(problems).isEmpty();
        }
    }

    private static String verdict(String node, List<Sample> early, List<Sample> late, List<String> problems) {
        StringBuilder out = new StringBuilder();
        check(node, "peak resident", peak(early, Sample::rssKiB) * 1024, peak(late, Sample::rssKiB) * 1024,
                peak(early, Sample::rssKiB) * 1024 / 10, out, problems);
        check(node, "live heap", median(early, Sample::liveHeapBytes), median(late, Sample::liveHeapBytes),
                Math.max(median(early, Sample::liveHeapBytes) / 10, 8L << 20), out, problems);
        check(node, "direct", median(early, Sample::directBytes), median(late, Sample::directBytes), 16L << 20, out,
                problems);
        check(node, "threads", median(early, Sample::threads), median(late, Sample::threads), 3, out, problems);
        check(node, "fds", median(early, Sample::fds), median(late, Sample::fds), 10, out, problems);
        return out.toString();
    }

    private static void check(String node, String what, long early, long late, long allowed, StringBuilder out,
                              List<String> problems) {
        long growth = late - early;
        boolean bytes = !what.equals("threads") && !what.equals("fds");
        String text = bytes ? String.format(Locale.ROOT, "%s %+.1f MiB", what, growth / 1048576.0)
                : String.format(Locale.ROOT, "%s %+d", what, growth);
        out.append(out.isEmpty() ? "" : ", ").append(text);
        if (growth > allowed) {
            problems.add(node + " " + text);
        }
    }

    private static long median(List<Sample> samples, java.util.function.ToLongFunction<Sample> value) {
        long[] sorted = samples.stream().mapToLong(value).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    private static long peak(List<Sample> samples, java.util.function.ToLongFunction<Sample> value) {
        return samples.stream().mapToLong(value).max().orElse(0);
    }

    private static Sample sample(long pid, int httpPort) throws IOException, InterruptedException {
        fullCollection(pid);
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        long fds;
        try (Stream<Path> open = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = open.count();
        }
        String scrape = LocalCluster.get(httpPort, "/actuator/prometheus").orElse("");
        return new Sample(field(status, "VmRSS"), metric(scrape, "jvm_gc_live_data_size_bytes\\{[^}]*}"),
                metric(scrape, "jvm_buffer_memory_used_bytes\\{[^}]*id=\"direct\"[^}]*}"), field(status, "Threads"),
                fds);
    }

    /** Runs {@code jcmd <pid> GC.run} from the JDK running this test, waiting at most a minute. */
    private static void fullCollection(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(gc.waitFor(1, java.util.concurrent.TimeUnit.MINUTES)).as("jcmd %d GC.run finished", pid).isTrue();
        assertThat(gc.exitValue()).as("jcmd %d GC.run exit code", pid).isZero();
    }

    private static long field(String status, String name) {
        Matcher m = Pattern.compile("^" + name + ":\\s+(\\d+)", Pattern.MULTILINE).matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static long metric(String scrape, String series) {
        Matcher m = Pattern.compile("^" + series + " ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(scrape);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }
}

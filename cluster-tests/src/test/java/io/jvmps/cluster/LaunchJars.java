package io.jvmps.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * How a test node runs a module: the jar and the JVM flags that go with it. With
 * {@code ps.it.extract-jars=true} (the cluster tests' default, see cluster-tests/pom.xml) the module's
 * executable jar is unpacked once per test JVM with Spring Boot's {@code -Djarmode=tools extract} into
 * {@code <module>/target/extracted}, and nodes run the thin jar there, whose libraries sit beside it as
 * plain jars: a server starts in about half the CPU of the nested-jar launch (3.8 s against 8.2 s alone on
 * this machine). Then, once per module, a start that stops right after the application context is up
 * records the classes it loaded into a class-data-sharing archive ({@code -XX:ArchiveClassesAtExit}),
 * which every node of that module maps at start ({@code -XX:SharedArchiveFile}): 2.6 s instead of 3.8 s.
 * Clusters start 4-5 nodes on 2 cores, so start-up CPU is most of the suite's time. The classes and their
 * order are the same; benchmarks run the executable jars as users do.
 */
final class LaunchJars {
    private static final boolean EXTRACT = Boolean.getBoolean("ps.it.extract-jars");
    private static final List<String> MODULES = List.of("scheduler-service", "server-service", "worker-service");
    private static final Map<String, Launch> PREPARED = new ConcurrentHashMap<>();
    private static final Map<String, String> FAILURES = new ConcurrentHashMap<>();
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private LaunchJars() {
    }

    /**
     * @param jar   the jar to pass to {@code java -jar}
     * @param flags JVM flags to add before {@code -jar}
     */
    record Launch(Path jar, List<String> flags) {
    }

    /**
     * @param repo      the repository root
     * @param module    e.g. {@code server-service}
     * @param nodeFlags the JVM flags every node gets (the archive is recorded with them)
     * @return how to start a node of {@code module}
     */
    static Launch forModule(Path repo, String module, List<String> nodeFlags) throws IOException {
        Path exec = execJar(repo, module);
        if (!EXTRACT) {
            return new Launch(exec, List.of());
        }
        prepareAll(repo, nodeFlags);
        Launch launch = PREPARED.get(module);
        if (launch == null) {
            throw new IOException("could not prepare " + module + " for launch: " + FAILURES.get(module));
        }
        return launch;
    }

    /**
     * Prepares every service module at once, in parallel (one JVM each, mostly single-threaded work), the
     * first time any node starts: about 15 s instead of 35 s one after the other.
     */
    private static synchronized void prepareAll(Path repo, List<String> nodeFlags) {
        if (!PREPARED.isEmpty() || !FAILURES.isEmpty()) {
            return;
        }
        List<Thread> threads = new ArrayList<>();
        for (String module : MODULES) {
            Thread t = new Thread(() -> {
                try {
                    PREPARED.put(module, prepare(execJar(repo, module), repo.resolve(module).resolve("target/extracted"),
                            nodeFlags, repo.resolve("data/mnist")));
                } catch (IOException | RuntimeException e) {
                    FAILURES.put(module, e.toString());
                }
            }, "prepare-" + module);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Path execJar(Path repo, String module) throws IOException {
        try (var files = Files.list(repo.resolve(module).resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().endsWith("-exec.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no exec jar in " + module + "/target: run ./mvnw package"));
        }
    }

    private static Launch prepare(Path exec, Path destination, List<String> nodeFlags, Path mnist) {
        run(List.of(java(), "-Djarmode=tools", "-jar", exec.toString(), "extract", "--destination",
                destination.toString(), "--force"), "extracting " + exec);
        Path thin = destination.resolve(exec.getFileName());
        if (!Files.isRegularFile(thin)) {
            throw new IllegalStateException("extracting " + exec + " left no " + thin);
        }
        Path archive = destination.resolve("classes.jsa");
        List<String> record = new ArrayList<>(List.of(java(), "-Xmx512m"));
        record.addAll(nodeFlags);
        record.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh",
                "-Dps.security.secret=class-data-sharing-training-run", "-jar", thin.toString(),
                "--server.port=0", "--spring.rsocket.server.port=0", "--ps.scheduler.port=9",
                // a worker reads its data while the context starts (the cluster tests fetch MNIST first)
                Files.isDirectory(mnist) ? "--ps.worker.dataset.path=" + mnist : "--ps.worker.dataset.format=SYNTHETIC"));
        try {
            Files.deleteIfExists(archive);
            run(record, "recording the class-data-sharing archive of " + thin);
        } catch (IOException | IllegalStateException e) {
            // a node without the archive starts all the same, only slower
            System.err.println("class-data sharing off for " + thin + ": " + e.getMessage());
        }
        return new Launch(thin, Files.isRegularFile(archive)
                ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off") : List.of());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void run(List<String> command, String what) {
        try {
            Path log = Files.createTempFile("launch-jars", ".log");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                if (!p.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(what + " took over " + LIMIT);
                }
                if (p.exitValue() != 0) {
                    String out = Files.readString(log);
                    throw new IllegalStateException(what + " failed (exit " + p.exitValue() + "): "
                            + out.substring(Math.max(0, out.length() - 2000)));
                }
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new IllegalStateException(what + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        }
    }
}

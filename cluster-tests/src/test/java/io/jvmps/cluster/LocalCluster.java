package io.jvmps.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Starts the real scheduler, server and worker jars as separate JVMs on loopback, each logging to
 * its own file under {@code target/cluster-logs/<test>/}, and stops every one of them on close
 * (also from a shutdown hook, so an aborted test run leaves no process behind).
 */
final class LocalCluster implements AutoCloseable {
    /**
     * Extra JVM flags for every node, from the build (cluster-tests/pom.xml) or {@code -Dps.it.node-jvm-flags};
     * {@code {node}} in a flag becomes the node's name (one JFR file per node).
     */
    private static final List<String> NODE_JVM_FLAGS = Arrays.stream(
            System.getProperty("ps.it.node-jvm-flags", "").trim().split("\\s+")).filter(f -> !f.isEmpty()).toList();
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");

    private final Path jarDir;
    private final Path logDir;
    private final List<NodeProcess> processes = new ArrayList<>();
    private final Thread hook = new Thread(this::close, "cluster-cleanup");
    private int schedulerPort;
    /** One fresh cluster secret per cluster, given to every node as PS_SECURITY_SECRET. */
    private final String secret = "it-" + java.util.UUID.randomUUID();

    LocalCluster(String testName) throws IOException {
        this.jarDir = TestPaths.repo();
        this.logDir = Path.of("target", "cluster-logs", testName).toAbsolutePath();
        Files.createDirectories(logDir);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    Path logDir() {
        return logDir;
    }

    /** @return {@code logDir()/name}, emptied: files a former run left there (e.g. checkpoints) are gone */
    Path freshDir(String name) throws IOException {
        Path dir = logDir.resolve(name);
        if (Files.exists(dir)) {
            try (var all = Files.walk(dir)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }

    String secret() {
        return secret;
    }

    int schedulerPort() {
        return schedulerPort;
    }

    /**
     * Starts the scheduler on a port that was free a moment ago and returns at once: servers and workers
     * started next boot beside it and retry their registration until it answers, as they do in a real
     * deployment (saves one JVM start-up per cluster, the scheduler's, of the suite's time).
     */
    NodeProcess startScheduler(int servers, int workers, String... args) throws IOException {
        schedulerPort = freePort();
        List<String> all = new ArrayList<>(List.of("--server.port=" + schedulerPort,
                "--ps.cluster.server-num=" + servers, "--ps.cluster.worker-num=" + workers));
        all.addAll(List.of(args));
        return start("scheduler", "scheduler-service", "-Xmx256m", Map.of(), all);
    }

    /** @return a TCP port that was free a moment ago, for a process started next to bind */
    static int freePort() throws IOException {
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /** Starts a new scheduler on the port of the first one (after it was killed), under another log name. */
    NodeProcess restartScheduler(String name, int servers, int workers, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--server.port=" + schedulerPort, "--ps.cluster.server-num=" + servers,
                "--ps.cluster.worker-num=" + workers));
        all.addAll(List.of(args));
        NodeProcess scheduler = start(name, "scheduler-service", "-Xmx256m", Map.of(), all);
        scheduler.awaitLog(HTTP_PORT, Duration.ofSeconds(60));
        return scheduler;
    }

    /** Starts a role's jar with exactly these arguments (plus free ports), e.g. to check start-up failures. */
    NodeProcess startRaw(String name, String module, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--server.port=0", "--spring.rsocket.server.port=0"));
        all.addAll(List.of(args));
        return start(name, module, "-Xmx512m", Map.of(), all);
    }

    /** Starts a role's jar as a command-line tool with exactly these arguments, e.g. the worker's {@code predict}. */
    NodeProcess startTool(String name, String module, String... args) throws IOException {
        return start(name, module, "-Xmx1g", Map.of("OMP_NUM_THREADS", "1"), List.of(args));
    }

    /**
     * Starts a user's Java program (not a jvm-ps jar) with the cluster's secret in {@code PS_SECURITY_SECRET},
     * e.g. a training program built on the client library.
     *
     * @param classPath its class path
     * @param mainClass its main class
     */
    NodeProcess startProgram(String name, String classPath, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g"));
        NODE_JVM_FLAGS.forEach(flag -> command.add(flag.replace("{node}", name)));
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .directory(jarDir.toFile());
        builder.environment().put("PS_SECURITY_SECRET", secret);
        builder.environment().put("OMP_NUM_THREADS", "1");
        NodeProcess node = new NodeProcess(name, builder.start(), log);
        processes.add(node);
        return node;
    }

    /**
     * Starts one of the repository's scripts as a user runs it, from the repository root, with the cluster's secret
     * in {@code PS_SECURITY_SECRET} and {@code env} added; it is stopped (with what it started) on {@link #close}.
     *
     * @param script its path under the repository, e.g. {@code scripts/run-local.sh}
     */
    NodeProcess startScript(String name, Map<String, String> env, String script, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", TestPaths.repo().resolve(script).toString()));
        command.addAll(List.of(args));
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putIfAbsent("PS_SECURITY_SECRET", secret);
        return startFromRepo(name, all, command);
    }

    /**
     * Runs shell commands with bash from the repository root, as a user types them into a terminal, with
     * {@code env} added and no cluster secret given (the nodes find theirs as a user's do); stopped on
     * {@link #close}.
     */
    NodeProcess startShell(String name, Map<String, String> env, String commands) throws IOException {
        return startFromRepo(name, env, List.of("bash", "-c", "set -e\n" + commands));
    }

    private NodeProcess startFromRepo(String name, Map<String, String> env, List<String> command) throws IOException {
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .directory(TestPaths.repo().toFile());
        builder.environment().remove("PS_SECURITY_SECRET");
        builder.environment().putAll(env);
        NodeProcess node = new NodeProcess(name, builder.start(), log);
        processes.add(node);
        return node;
    }

    NodeProcess startServer(int index, int servers, int workers, String... args) throws IOException {
        return start("server-" + index, "server-service", "-Xmx512m", Map.of(), withCluster(servers, workers, args));
    }

    /** Starts a server under another log name, e.g. the replacement of a killed one. */
    NodeProcess startServerNamed(String name, int servers, int workers, String... args) throws IOException {
        return start(name, "server-service", "-Xmx512m", Map.of(), withCluster(servers, workers, args));
    }

    NodeProcess startWorker(int index, int servers, int workers, String... args) throws IOException {
        return startWorkerWithHeap(index, servers, workers, "-Xmx1g", args);
    }

    /** Starts a worker under another log name, e.g. the replacement of a killed one. */
    NodeProcess startWorkerNamed(String name, int servers, int workers, String... args) throws IOException {
        return start(name, "worker-service", "-Xmx1g", Map.of("OMP_NUM_THREADS", "1"),
                withCluster(servers, workers, args));
    }

    /** Starts a server with another heap than the default 512 MB, e.g. {@code -Xmx2g}. */
    NodeProcess startServerWithHeap(int index, int servers, int workers, String heap, String... args) throws IOException {
        return start("server-" + index, "server-service", heap, Map.of(), withCluster(servers, workers, args));
    }

    /** Starts a worker with another heap than the default 1 GB, e.g. {@code -Xmx512m}. */
    NodeProcess startWorkerWithHeap(int index, int servers, int workers, String heap, String... args) throws IOException {
        return start("worker-" + index, "worker-service", heap, Map.of("OMP_NUM_THREADS", "1"),
                withCluster(servers, workers, args));
    }

    private List<String> withCluster(int servers, int workers, String... args) {
        List<String> all = new ArrayList<>(List.of("--ps.cluster.server-num=" + servers,
                "--ps.cluster.worker-num=" + workers));
        if (schedulerPort > 0) {
            all.addAll(List.of("--ps.scheduler.host=127.0.0.1", "--ps.scheduler.port=" + schedulerPort));
        }
        all.addAll(List.of(args));
        return all;
    }

    /**
     * Starts a server with JVM flags of its own after the defaults (a later {@code -D} or {@code -Xmx} wins), e.g. a
     * larger heap and javacpp limits for a big model.
     */
    NodeProcess startServerWithJvmFlags(int index, int servers, int workers, List<String> jvmFlags, String... args)
            throws IOException {
        return start("server-" + index, "server-service", jvmFlags, Map.of(), withCluster(servers, workers, args));
    }

    private NodeProcess start(String name, String module, String heap, Map<String, String> env, List<String> args)
            throws IOException {
        return start(name, module, List.of(heap), env, args);
    }

    private NodeProcess start(String name, String module, List<String> jvmFlags, Map<String, String> env,
                              List<String> args) throws IOException {
        LaunchJars.Launch launch = LaunchJars.forModule(jarDir, module, NODE_JVM_FLAGS);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.bytedeco.javacpp.maxbytes=2g", "-Dorg.bytedeco.javacpp.maxphysicalbytes=3g"));
        command.addAll(jvmFlags);
        NODE_JVM_FLAGS.forEach(flag -> command.add(flag.replace("{node}", name))); // e.g. a JFR file per node
        command.addAll(launch.flags());
        command.addAll(List.of("-jar", launch.jar().toString()));
        command.addAll(args);
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).directory(jarDir.toFile());
        builder.environment().put("PS_SECURITY_SECRET", secret);
        builder.environment().putAll(env);
        builder.environment().put("OMP_WAIT_POLICY", "PASSIVE"); // servers run so in the image and ps-launch.sh; workers have one OpenMP thread
        NodeProcess node = new NodeProcess(name, builder.start(), log);
        processes.add(node);
        return node;
    }

    /**
     * Starts the scheduler with fast failure detection (DEAD after 3 s of silence, checked every 200 ms) and
     * {@code servers} servers in {@code mode} (SSP with staleness 2) with ADAM 0.01 that heartbeat every
     * 300 ms, plus {@code serverArgs}: the set-up of the worker-failure tests.
     */
    List<NodeProcess> startJobWithFastFailureDetection(int servers, int workers, String mode, String... serverArgs)
            throws IOException {
        startScheduler(servers, workers, "--ps.scheduler.heartbeat-timeout=3s",
                "--ps.scheduler.failure-check-interval=200ms");
        List<NodeProcess> started = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
            started.add(startServer(s, servers, workers, fastFailureServerArgs(mode, serverArgs)));
        }
        return started;
    }

    /** @return the server arguments {@link #startJobWithFastFailureDetection} starts servers with */
    static String[] fastFailureServerArgs(String mode, String... serverArgs) {
        List<String> args = new ArrayList<>(List.of("--ps.optimizer.type=ADAM", "--ps.optimizer.learning-rate=0.01",
                "--ps.consistency.mode=" + mode, "--ps.consistency.staleness=2", "--ps.node.heartbeat-interval=300ms"));
        args.addAll(List.of(serverArgs));
        return args.toArray(String[]::new);
    }

    /**
     * @param path e.g. {@code /api/v1/job}
     * @return the scheduler's 200 answer to a GET of {@code path}, or empty when it is not up or answers
     *         otherwise (for polling)
     */
    Optional<String> schedulerGet(String path) {
        return get(schedulerPort, path);
    }

    /** @return a node's 200 answer to a GET of {@code path} on HTTP port {@code port}, or empty (for polling) */
    /**
     * One client for every test call: its keep-alive connections are reused. (A client per call left one open
     * connection per call on the node until the test JVM's next collection, which the soak drill counted as
     * the nodes' file descriptors growing.)
     */
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * @return a server's slice versions after a job as {@code "<min>-<max>"} (the pushes applied on its slices),
     *         read from its {@code /api/v1/status}
     */
    static String sliceVersions(NodeProcess server) {
        int port = Integer.parseInt(server.awaitLog(java.util.regex.Pattern.compile("Netty started on port (\\d+)"),
                Duration.ofSeconds(1)).group(1));
        String status = NodeProcess.poll(server.name() + "'s status", Duration.ofSeconds(10),
                () -> get(port, "/api/v1/status"));
        java.util.regex.Matcher v = java.util.regex.Pattern.compile("\"minVersion\":(\\d+),\"maxVersion\":(\\d+)")
                .matcher(status);
        org.assertj.core.api.Assertions.assertThat(v.find()).as(status).isTrue();
        return v.group(1) + "-" + v.group(2);
    }

    static Optional<String> get(int port, String path) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        // workers first, then servers, then the scheduler; each group shuts down in parallel
        for (String role : List.of("worker", "server", "scheduler")) {
            List<NodeProcess> group = processes.stream().filter(p -> p.name().startsWith(role)).toList();
            group.forEach(NodeProcess::requestStop);
            group.forEach(NodeProcess::awaitStopped);
        }
        processes.forEach(NodeProcess::stop);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // already running as the hook
        }
    }
}

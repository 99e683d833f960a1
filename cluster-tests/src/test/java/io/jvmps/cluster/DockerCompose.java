package io.jvmps.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Drives the repository's {@code docker-compose.yml} through the real Docker CLI ({@code docker-compose}
 * v1 if installed, else {@code docker compose}) under a project name of its own, and tears the project
 * down (containers, networks, volumes) on close, also from a shutdown hook.
 */
final class DockerCompose implements AutoCloseable {
    private final Path repo;
    private final String project;
    private final Map<String, String> env;
    private final List<String> cli;
    private final Thread hook = new Thread(this::close, "compose-cleanup");
    private boolean closed;

    DockerCompose(Path repo, String project, Map<String, String> env) {
        this.repo = repo;
        this.project = project;
        this.env = env;
        this.cli = run(List.of("docker-compose", "version"), Duration.ofSeconds(30)).exit() == 0
                ? List.of("docker-compose") : List.of("docker", "compose");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Skips the calling test when no Docker engine answers, or fails it when {@code PS_REQUIRE_DOCKER=1}
     * (as {@code .ci/run} sets), naming why.
     */
    static void assumeEngine() {
        Result engine = engine();
        if ("1".equals(System.getenv("PS_REQUIRE_DOCKER")) && engine.exit() != 0) {
            throw new AssertionError("PS_REQUIRE_DOCKER=1 but no Docker engine answers: " + engine.output());
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(engine.exit() == 0,
                "no Docker engine (set DOCKER_HOST): " + engine.output());
    }

    /** Whether a Docker engine answers ({@code docker info}); reason in the result's output otherwise. */
    static Result engine() {
        return run(List.of("docker", "info", "--format", "{{.ServerVersion}}"), Duration.ofSeconds(30));
    }

    /** Runs {@code compose <args>} in the repository and fails with its output unless it exits 0. */
    String compose(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(cli);
        command.addAll(List.of("-p", project, "-f", repo.resolve("docker-compose.yml").toString()));
        command.addAll(List.of(args));
        Result result = runIn(command, timeout);
        if (result.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + result.exit() + ":\n" + result.output());
        }
        return result.output();
    }

    /**
     * Crashes a service: SIGKILLs its container's main process (the JVM) from the host, as the kernel's OOM
     * killer or a JVM crash would. The engine sees the container exit and applies its restart policy; a
     * {@code docker kill} instead counts as a manual stop, which {@code unless-stopped} does not restart.
     * Needs the engine's processes visible from here (a local engine, as {@code .ci/run} starts).
     *
     * @return the host PID that was killed
     */
    long crash(String service) {
        String container = compose(Duration.ofSeconds(30), "ps", "-q", service).strip();
        Result inspect = run(List.of("docker", "inspect", "-f", "{{.State.Pid}}", container), Duration.ofSeconds(30));
        long pid = Long.parseLong(inspect.output().strip());
        ProcessHandle jvm = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("the main process " + pid
                + " of " + service + " is not visible from this host (an engine in a VM?): cannot crash it"));
        if (!jvm.destroyForcibly()) {
            throw new AssertionError("could not SIGKILL " + pid + " (" + service + ")");
        }
        return pid;
    }

    /** @return how often the engine restarted a service's container */
    int restarts(String service) {
        String container = compose(Duration.ofSeconds(30), "ps", "-q", service).strip();
        return Integer.parseInt(run(List.of("docker", "inspect", "-f", "{{.RestartCount}}", container),
                Duration.ofSeconds(30)).output().strip());
    }

    /** The last lines of every service's log, for failure messages. */
    String logs() {
        try {
            return compose(Duration.ofMinutes(1), "logs", "--no-color", "--tail=40");
        } catch (AssertionError e) {
            return "(no logs: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            compose(Duration.ofMinutes(2), "down", "-v", "--remove-orphans", "--timeout", "10");
        } catch (AssertionError e) {
            System.err.println("compose down failed: " + e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // called from the hook itself
        }
    }

    private Result runIn(List<String> command, Duration timeout) {
        return exec(command, timeout, repo, env);
    }

    /** Runs one command (e.g. {@code docker ...}) outside any project; never throws for a non-zero exit. */
    static Result run(List<String> command, Duration timeout) {
        return exec(command, timeout, null, Map.of());
    }

    static Result exec(List<String> command, Duration timeout, Path dir, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            // Read on another thread so a chatty command cannot block on a full pipe.
            StringBuilder out = new StringBuilder();
            Thread reader = new Thread(() -> {
                try {
                    out.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the process died; its exit code tells the rest
                }
            });
            reader.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                reader.join(5000);
                return new Result(-1, String.join(" ", command) + " still running after " + timeout + "\n" + out);
            }
            reader.join(5000);
            return new Result(process.exitValue(), out.toString());
        } catch (IOException e) {
            return new Result(-1, "cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** Exit status and merged stdout/stderr of one command. */
    record Result(int exit, String output) {
    }
}

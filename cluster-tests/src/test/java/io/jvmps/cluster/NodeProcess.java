package io.jvmps.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One started JVM of the cluster, its log file, and polling helpers with deadlines. */
final class NodeProcess {
    private final String name;
    private final Process process;
    private final Path log;

    NodeProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    String name() {
        return name;
    }

    Process process() {
        return process;
    }

    Path log() {
        return log;
    }

    String logText() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Polls the log until a line matches, failing at the deadline or when the process dies first. */
    Matcher awaitLog(Pattern pattern, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos(); // monotonic: a wall-clock step changes nothing
        while (System.nanoTime() - deadline < 0) {
            Matcher m = pattern.matcher(logText());
            if (m.find()) {
                return m;
            }
            if (!process.isAlive()) {
                Matcher last = pattern.matcher(logText());
                if (last.find()) {
                    return last;
                }
                throw new AssertionError(name + " exited with " + process.exitValue() + " before logging /" + pattern
                        + "/; log tail:\n" + tail());
            }
            pause();
        }
        throw new AssertionError(name + " did not log /" + pattern + "/ within " + timeout + "; log tail:\n" + tail());
    }

    /** Waits for the process to exit, failing at the deadline. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still running after " + timeout + "; log tail:\n" + tail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name);
        }
        return process.exitValue();
    }

    static <T> T poll(String what, Duration timeout, java.util.function.Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos(); // monotonic: a wall-clock step changes nothing
        while (System.nanoTime() - deadline < 0) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            pause();
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
    }

    static boolean until(Duration timeout, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos(); // monotonic: a wall-clock step changes nothing
        while (System.nanoTime() - deadline < 0) {
            if (condition.getAsBoolean()) {
                return true;
            }
            pause();
        }
        return false;
    }

    String tail() {
        String text = logText();
        return text.length() > 6000 ? text.substring(text.length() - 6000) : text;
    }

    void stop() {
        requestStop();
        awaitStopped();
    }

    /** Sends SIGTERM (graceful shutdown) without waiting. */
    void requestStop() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
        }
    }

    /** Waits up to 10 s for the exit after {@link #requestStop()}, then kills. */
    void awaitStopped() {
        if (!process.isAlive()) {
            return;
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}

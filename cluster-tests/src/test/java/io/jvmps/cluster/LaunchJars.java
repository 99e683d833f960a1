package io.jvmps.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The jar a test node runs for a module. With {@code ps.it.extract-jars=true} (the cluster tests'
 * default, see cluster-tests/pom.xml) the module's executable jar is unpacked once per test JVM with
 * Spring Boot's {@code -Djarmode=tools extract} into {@code <module>/target/extracted}, and nodes run
 * the thin jar there, whose libraries sit beside it as plain jars: a server starts in about half the CPU
 * of the nested-jar launch (3.8 s against 8.2 s alone on this machine), and clusters start 4-5 nodes on
 * 2 cores. The classes and their order are the same; benchmarks run the executable jar as users do.
 */
final class LaunchJars {
    private static final boolean EXTRACT = Boolean.getBoolean("ps.it.extract-jars");
    private static final Map<String, Path> EXTRACTED = new ConcurrentHashMap<>();

    private LaunchJars() {
    }

    /** @return the jar to pass to {@code java -jar} for {@code module} (e.g. {@code server-service}) */
    static Path forModule(Path repo, String module) throws IOException {
        Path exec = execJar(repo, module);
        if (!EXTRACT) {
            return exec;
        }
        try {
            return EXTRACTED.computeIfAbsent(module, m -> extract(exec, repo.resolve(m).resolve("target/extracted")));
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static Path execJar(Path repo, String module) throws IOException {
        try (var files = Files.list(repo.resolve(module).resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().endsWith("-exec.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no exec jar in " + module + "/target: run ./mvnw package"));
        }
    }

    private static Path extract(Path exec, Path destination) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = List.of(java.toString(), "-Djarmode=tools", "-jar", exec.toString(), "extract",
                "--destination", destination.toString(), "--force");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            Duration limit = Duration.ofMinutes(2);
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("extracting " + exec + " took over " + limit);
            }
            Path thin = destination.resolve(exec.getFileName());
            if (p.exitValue() != 0 || !Files.isRegularFile(thin)) {
                throw new IllegalStateException("extracting " + exec + " failed (exit " + p.exitValue() + "): "
                        + new String(out));
            }
            return thin;
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract " + exec + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while extracting " + exec, e);
        }
    }
}

package io.jvmps.cluster;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kubernetes manifests in {@code deploy/k8s} are schema-checked here, not run (no cluster can run on
 * our machines): {@code deploy/k8s/check/check.mjs} validates every document against the Kubernetes API
 * schemas of its kind, rejects fields the kind does not define, and checks the manifests against the
 * applications (probe paths and ports, the images' ports, environment variable names the services read,
 * cluster sizes, references between objects). A copy with one mistake of each kind must fail, naming each.
 */
class KubernetesManifestsTest {
    private static final Path REPO = TestPaths.repo();
    private static final Path MANIFESTS = REPO.resolve("deploy/k8s");
    private static final Path CHECK = MANIFESTS.resolve("check");

    @BeforeAll
    static void installTheChecker() throws Exception {
        if (!Files.isDirectory(CHECK.resolve("node_modules/kubernetes-models"))) {
            Result npm = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Duration.ofMinutes(4));
            assertThat(npm.exit).as("npm ci in %s:\n%s", CHECK, npm.output).isZero();
        }
    }

    @Test
    void everyManifestIsValidAndMatchesTheApplications() throws Exception {
        Result check = run(List.of("node", "check.mjs", MANIFESTS.toString(), REPO.toString()), Duration.ofMinutes(2));
        assertThat(check.exit).as(check.output).isZero();
        assertThat(check.output).contains("11 manifests valid", "Deployment/jvm-ps-scheduler", "PersistentVolumeClaim/jvm-ps-scheduler-state",
                "StatefulSet/jvm-ps-server", "Job/jvm-ps-worker", "Service/jvm-ps-server", "Secret/jvm-ps-cluster-secret",
                "PersistentVolumeClaim/jvm-ps-models");
    }

    @Test
    void mistakesAreFoundAndNamed(@TempDir Path broken) throws Exception {
        try (var files = Files.list(MANIFESTS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                Files.copy(f, broken.resolve(f.getFileName()));
            }
        }
        edit(broken.resolve("scheduler.yaml"), "imagePullPolicy: IfNotPresent",
                "imagePullPolicy: IfNotPresent\n          portz: [8080]");
        edit(broken.resolve("workers.yaml"), "path: /actuator/health/readiness", "path: /health");
        edit(broken.resolve("workers.yaml"), "backoffLimit: 6", "backoffLimit: six");
        edit(broken.resolve("servers.yaml"), "containerPort: 7000", "containerPort: 7070");
        edit(broken.resolve("servers.yaml"), "name: PS_CHECKPOINT_DIR", "name: PS_CHECKPOINT_DIRECTORY");
        edit(broken.resolve("configmap.yaml"), "MS_SERVER_NUM: \"2\"", "MS_SERVER_NUM: \"3\"");

        Result check = run(List.of("node", "check.mjs", broken.toString(), REPO.toString()), Duration.ofMinutes(2));
        assertThat(check.exit).as(check.output).isEqualTo(1);
        assertThat(check.output)
                .contains("scheduler.yaml Deployment/jvm-ps-scheduler: Object literal may only specify known properties, "
                        + "and '\"portz\"' does not exist")
                .contains("readinessProbe path must be /actuator/health/readiness, is /health")
                .contains("workers.yaml Job/jvm-ps-worker: data/spec/backoffLimit must be integer")
                .contains("port rsocket must be 7000 (what the image listens on), is 7070")
                .contains("env PS_CHECKPOINT_DIRECTORY is not a variable the services read")
                .contains("replicas 2 != MS_SERVER_NUM 3");
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).as(file + " holds " + from).contains(from);
        Files.writeString(file, text.replace(from, to));
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command, Duration limit) throws Exception {
        Path log = Files.createTempFile("k8s-check", ".log");
        try {
            Process p;
            try {
                p = new ProcessBuilder(command).directory(CHECK.toFile()).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                throw new AssertionError(command.get(0) + " is needed to check the Kubernetes manifests (install "
                        + "Node.js and npm): " + e.getMessage(), e);
            }
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + limit + ":\n"
                        + Files.readString(log));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}

package io.jvmps.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Deploys {@code deploy/swarm/jvm-ps.yml} as a Docker Swarm stack through the real Docker CLI: joins a
 * single-node swarm first if the engine is in none (and leaves it again on close), creates the cluster
 * secret as a swarm secret, and on close removes the stack, waits for its containers to go, then removes
 * its volumes and the secret; also from a shutdown hook.
 */
final class SwarmStack implements AutoCloseable {
    private final Path repo;
    private final String name;
    private final Map<String, String> env;
    private final String secretName;
    private final boolean initialisedSwarm;
    private final Thread hook = new Thread(this::close, "swarm-cleanup");
    private boolean closed;

    /**
     * @param env substitutions for the stack file; {@code PS_CLUSTER_SECRET_NAME} is set here
     */
    SwarmStack(Path repo, String name, Map<String, String> env) throws Exception {
        this.repo = repo;
        this.name = name;
        this.secretName = name + "-secret";
        String state = docker(Duration.ofSeconds(30), "info", "--format", "{{.Swarm.LocalNodeState}}").strip();
        this.initialisedSwarm = !"active".equals(state);
        Runtime.getRuntime().addShutdownHook(hook);
        if (initialisedSwarm) {
            docker(Duration.ofMinutes(1), "swarm", "init", "--advertise-addr", "127.0.0.1");
        }
        Path secret = Files.createTempFile("cluster-secret", ".txt");
        try {
            Files.writeString(secret, java.util.UUID.randomUUID() + "-" + java.util.UUID.randomUUID(),
                    StandardCharsets.UTF_8);
            docker(Duration.ofSeconds(30), "secret", "create", secretName, secret.toString());
        } finally {
            Files.deleteIfExists(secret);
        }
        this.env = new java.util.HashMap<>(env);
        this.env.put("PS_CLUSTER_SECRET_NAME", secretName);
    }

    /** {@code docker stack deploy --resolve-image never} of the stack file, with this stack's variables. */
    String deploy() {
        return exec(Duration.ofMinutes(3), List.of("docker", "stack", "deploy", "--resolve-image", "never", "-c",
                repo.resolve("deploy/swarm/jvm-ps.yml").toString(), name));
    }

    /** @return {@code docker service ps} of one service of the stack: one "name state" line per task */
    String tasks(String service) {
        return docker(Duration.ofSeconds(30), "service", "ps", "--no-trunc", "--format",
                "{{.Name}} {{.CurrentState}} {{.Error}}", name + "_" + service);
    }

    /** @return the service's log (every task), for assertions and failure messages */
    String logs(String service) {
        DockerCompose.Result r = DockerCompose.run(List.of("docker", "service", "logs", "--raw", "--no-trunc",
                name + "_" + service), Duration.ofMinutes(1));
        return r.output();
    }

    /** @return the ids of the stack's running containers of {@code service} */
    List<String> containers(String service) {
        String out = docker(Duration.ofSeconds(30), "ps", "-q", "--filter",
                "label=com.docker.swarm.service.name=" + name + "_" + service);
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    /** Runs {@code docker <args>} and fails with its output unless it exits 0. */
    static String docker(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        DockerCompose.Result r = DockerCompose.run(command, timeout);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + r.exit() + ":\n" + r.output());
        }
        return r.output();
    }

    private String exec(Duration timeout, List<String> command) {
        DockerCompose.Result r = DockerCompose.exec(command, timeout, repo, env);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + r.exit() + ":\n" + r.output());
        }
        return r.output();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        DockerCompose.run(List.of("docker", "stack", "rm", name), Duration.ofMinutes(1));
        boolean gone = NodeProcess.until(Duration.ofMinutes(1), () -> DockerCompose.run(List.of("docker", "ps", "-aq",
                "--filter", "label=com.docker.stack.namespace=" + name), Duration.ofSeconds(30)).output().isBlank());
        if (!gone) {
            System.err.println("swarm stack " + name + ": containers still there a minute after docker stack rm");
        }
        for (String volume : List.of("javacpp", "checkpoints", "scheduler-state")) {
            DockerCompose.run(List.of("docker", "volume", "rm", name + "_" + volume), Duration.ofSeconds(30));
        }
        DockerCompose.run(List.of("docker", "secret", "rm", secretName), Duration.ofSeconds(30));
        if (initialisedSwarm) {
            DockerCompose.run(List.of("docker", "swarm", "leave", "--force"), Duration.ofMinutes(1));
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // called from the hook itself
        }
    }
}

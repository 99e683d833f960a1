package io.jvmps.common.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterSecretTest {
    private static final String SECRET = "a-secret-of-24-characters";

    @TempDir
    Path dir;

    @Test
    void configuredSecretWinsAndNoFileIsWritten() {
        List<String> announced = new ArrayList<>();
        ClusterSecret secret = ClusterSecret.resolve(SECRET, dir.resolve("s"), announced::add);
        assertThat(secret.matches(SECRET)).isTrue();
        assertThat(secret.matches(SECRET + "x")).isFalse();
        assertThat(secret.matches(null)).isFalse();
        assertThat(announced).isEmpty();
        assertThat(dir.resolve("s")).doesNotExist();
    }

    @Test
    void shortOrPaddedSecretsAreRejectedNamingTheProperty() {
        assertThatThrownBy(() -> ClusterSecret.of("short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ps.security.secret").hasMessageContaining("16");
        assertThatThrownBy(() -> ClusterSecret.of(" " + SECRET)).hasMessageContaining("ps.security.secret");
    }

    @Test
    void generatesOncePrivatelyAndReadsTheSameSecretLater() throws Exception {
        Path file = dir.resolve("nested/cluster-secret");
        List<String> announced = new ArrayList<>();
        ClusterSecret first = ClusterSecret.resolve("", file, announced::add);
        ClusterSecret second = ClusterSecret.resolve(null, file, announced::add);

        assertThat(second.matches(first.reveal())).isTrue();
        assertThat(first.reveal()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(announced).hasSize(1);
        assertThat(announced.get(0)).as("the log says where, never what").contains(file.toString())
                .doesNotContain(first.reveal());
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        try (var left = Files.list(file.getParent())) {
            assertThat(left).as("no temporary files left behind").containsExactly(file);
        }
    }

    @Test
    void nodesStartingTogetherAgreeOnOneGeneratedSecret() throws Exception {
        Path file = dir.resolve("cluster-secret");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Callable<String> node = () -> ClusterSecret.resolve("", file, line -> { }).reveal();
                results.add(pool.submit(node));
            }
            Set<String> seen = new HashSet<>();
            for (Future<String> r : results) {
                seen.add(r.get());
            }
            assertThat(seen).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTruncatedSecretFileIsRefused() throws Exception {
        Path file = dir.resolve("cluster-secret");
        Files.writeString(file, "tiny\n");
        assertThatThrownBy(() -> ClusterSecret.resolve("", file, line -> { }))
                .hasMessageContaining(file.toString()).hasMessageContaining("ps.security.secret-file");
    }

    @Test
    void headerCheckNeedsTheBearerSchemeAndLogsNeverShowTheSecret() {
        ClusterSecret secret = ClusterSecret.of(SECRET);
        assertThat(secret.matchesHeader("Bearer " + SECRET)).isTrue();
        assertThat(secret.matchesHeader(SECRET)).isFalse();
        assertThat(secret.matchesHeader("Bearer wrong-secret-of-enough-length")).isFalse();
        assertThat(secret.matchesHeader(null)).isFalse();
        assertThat(secret.headerValue()).isEqualTo("Bearer " + SECRET);
        assertThat(secret.toString()).isEqualTo("ClusterSecret[hidden]");
    }

    @Test
    void placeholdersAndLowVarietySecretsAreRefused() {
        assertThatThrownBy(() -> ClusterSecret.of("REPLACE-with-a-random-secret-of-32-or-more-characters"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ps.security.secret is a placeholder (it says to replace it)");
        assertThatThrownBy(() -> ClusterSecret.of("changeme-changeme-changeme"))
                .hasMessageContaining("is a placeholder");
        assertThatThrownBy(() -> ClusterSecret.of("abababababababababab"))
                .hasMessageContaining("has fewer than 8 distinct characters");
        assertThat(ClusterSecret.of("0123456789abcdef").matches("0123456789abcdef")).isTrue();
    }
}

package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A whole job over TLS with one switch ({@code ps.security.tls.bundle}): a self-signed certificate made
 * with the JDK's keytool, the scheduler on HTTPS, servers and workers on RSocket over TLS. The worker
 * can only finish if its TLS handshakes with the scheduler and the server succeed; a plain HTTP caller
 * gets nothing from the scheduler.
 */
class TlsIT {
    private static final String PASSWORD = "changeit";

    @Test
    void aJobRunsOverTlsAndPlainHttpIsRefused() throws Exception {
        try (LocalCluster cluster = new LocalCluster("tls")) {
            Path store = cluster.logDir().resolve("node.p12");
            Files.deleteIfExists(store);
            keytool(store);
            String[] tls = tlsArgs(store);

            NodeProcess scheduler = cluster.startScheduler(1, 1, tls);
            List<String> serverArgs = new ArrayList<>(List.of(tls));
            serverArgs.addAll(List.of("--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.1"));
            cluster.startServer(0, 1, 1, serverArgs.toArray(String[]::new));
            List<String> workerArgs = new ArrayList<>(List.of(tls));
            workerArgs.addAll(List.of("--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                    "--ps.worker.dataset.train-limit=512", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.epochs=1",
                    "--ps.worker.training.batch-size=64"));
            NodeProcess worker = cluster.startWorker(0, 1, 1, workerArgs.toArray(String[]::new));

            assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.tail()).isZero();
            assertThat(worker.logText()).contains("Cluster connections use TLS with SSL bundle 'cluster'")
                    .contains("Test accuracy on this worker's shard");
            assertThat(scheduler.logText()).contains("(https)");

            HttpClient trusting = HttpClient.newBuilder().sslContext(context(store)).build();
            String job = trusting.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + cluster.schedulerPort()
                    + "/api/v1/job")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(job).contains("\"state\":\"FINISHED\"").contains("\"total\":256");

            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> {
                HttpResponse<String> answer = plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + cluster.schedulerPort() + "/api/v1/job")).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.body().contains("FINISHED")) {
                    throw new AssertionError("plain HTTP was served: " + answer.body());
                }
                throw new IOException("refused with HTTP " + answer.statusCode());
            }).isInstanceOf(IOException.class);
        }
    }

    private static String[] tlsArgs(Path store) {
        String prefix = "--spring.ssl.bundle.jks.cluster.";
        String location = "file:" + store.toAbsolutePath();
        return new String[] {"--ps.security.tls.bundle=cluster",
            prefix + "keystore.location=" + location, prefix + "keystore.password=" + PASSWORD,
            prefix + "keystore.type=PKCS12", prefix + "truststore.location=" + location,
            prefix + "truststore.password=" + PASSWORD, prefix + "truststore.type=PKCS12"};
    }

    /** A self-signed node certificate for 127.0.0.1 and localhost, valid for two days. */
    private static void keytool(Path store) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "node", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=jvm-ps node", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static SSLContext context(Path store) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        KeyManagerFactory key = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        key.init(keys, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(key.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }
}

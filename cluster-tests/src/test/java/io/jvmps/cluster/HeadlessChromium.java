package io.jvmps.cluster;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real headless Chromium (Debian's {@code chromium}) driven over the DevTools protocol: it opens a
 * page and evaluates JavaScript in it. Started with a fresh profile and the flags that keep it from
 * making any outside connection; the process and the profile are removed on close.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Process process;
    private final Path profile;
    private final Path log;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private WebSocket page;

    /** @return the Chromium binary on the PATH, if any */
    static Optional<Path> find() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** The browser window's width in CSS pixels (a laptop's): the dashboard must fit it without scrolling sideways. */
    static final int WIDTH = 1280;

    HeadlessChromium(Path binary) throws IOException {
        profile = Files.createTempDirectory("jvmps-chromium-");
        log = profile.resolveSibling(profile.getFileName() + ".log");
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0", "--window-size=" + WIDTH + ",900", "about:blank");
        // Chromium puts its singleton socket directory in TMPDIR: inside the profile, close() removes it too.
        builder.environment().put("TMPDIR", profile.toString());
        process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        port = NodeProcess.poll("Chromium's DevTools port (log " + log + ")", Duration.ofSeconds(60), () -> {
            try {
                Matcher m = LISTENING.matcher(Files.readString(log));
                return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }

    /** Opens {@code url} in a new tab and attaches to it. */
    void open(String url) throws Exception {
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/json/new?" + URLEncoder.encode(url, StandardCharsets.UTF_8)))
                .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 200) {
            throw new AssertionError("Chromium could not open " + url + ": HTTP " + created.statusCode() + " " + created.body());
        }
        String ws = JSON.readTree(created.body()).get("webSocketDebuggerUrl").asString();
        page = http.newWebSocketBuilder().buildAsync(URI.create(ws), new Replies()).get(30, TimeUnit.SECONDS);
    }

    /**
     * @param expression JavaScript evaluated in the page; its value must be JSON-serialisable
     * @return the value, as JSON
     */
    JsonNode evaluate(String expression) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        ObjectNode call = JSON.createObjectNode().put("id", id).put("method", "Runtime.evaluate");
        call.putObject("params").put("expression", expression).put("returnByValue", true);
        page.sendText(JSON.writeValueAsString(call), true).get(10, TimeUnit.SECONDS);
        JsonNode result = reply.get(20, TimeUnit.SECONDS);
        if (result.has("error") || result.path("result").has("exceptionDetails")) {
            throw new AssertionError("evaluation failed: " + result);
        }
        return result.path("result").path("result").path("value");
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (page != null) {
            page.abort();
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // best effort: a temp directory
        }
    }

    /** Collects text frames into messages and completes the call each reply answers. */
    private final class Replies implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                JsonNode message = JSON.readTree(partial.toString());
                partial.setLength(0);
                if (message.has("id")) {
                    CompletableFuture<JsonNode> reply = pending.remove(message.get("id").asInt());
                    if (reply != null) {
                        reply.complete(message);
                    }
                }
            }
            socket.request(1);
            return null;
        }
    }
}

package io.jvmps.cluster;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard in a real browser against a real training cluster (scheduler, one server, one worker training the
 * CTR job, whose two tables admit ids on their second push and evict idle rows): headless Chromium, 1280 pixels
 * wide, loads the scheduler's page, which must show both nodes in the topology, a loss curve with points, the
 * server's own report (heap, push p99), both embedding tables with their rows and admissions, keep receiving live
 * updates over server-sent events, and fit the window without scrolling sideways.
 *
 * <p>Needs {@code chromium} on the PATH; {@code .ci/run} installs it and sets {@code PS_REQUIRE_BROWSER=1},
 * which turns a missing browser into a failure instead of a skip.
 */
class DashboardBrowserIT {
    /** The page's state as JSON, or {@code "loading"} while the page is not there yet. */
    private static final String PROBE = """
            !document.getElementById('loss-chart') ? 'loading' : JSON.stringify({
              nodes: [...document.querySelectorAll('#topology tbody tr[data-role]')].map(r => r.dataset.role + ':' + r.dataset.state),
              points: Number(document.getElementById('loss-chart').dataset.points),
              lines: [...document.querySelectorAll('#loss-chart polyline.loss-line')].map(l => l.getAttribute('points').trim().split(' ').length),
              updates: Number(document.body.dataset.updates || 0),
              connection: document.getElementById('connection').textContent,
              job: document.getElementById('job-state').textContent,
              events: document.querySelectorAll('#events li').length,
              servers: [...document.querySelectorAll('#servers tbody tr[data-rank]')].map(r => ({
                heap: Number(r.dataset.heap), pushP99: Number(r.dataset.pushP99), cells: r.cells.length })),
              tables: [...document.querySelectorAll('#tables tbody tr[data-table]')].map(r => ({
                name: r.dataset.table, rows: Number(r.dataset.rows), admitted: Number(r.dataset.admitted),
                dropped: Number(r.cells[6].textContent), cells: r.cells.length })),
              pageWidth: document.documentElement.scrollWidth,
              windowWidth: window.innerWidth
            })""";

    @Test
    void chromiumShowsTheTopologyAndALiveLossCurve() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        if ("1".equals(System.getenv("PS_REQUIRE_BROWSER"))) {
            assertThat(chromium).as("PS_REQUIRE_BROWSER=1 but no chromium on the PATH").isPresent();
        }
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium on the PATH (apt-get install chromium)");

        try (LocalCluster cluster = new LocalCluster("dashboard-browser")) {
            cluster.startScheduler(1, 1);
            cluster.startServer(0, 1, 1, "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.1");
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.worker.job=CTR", "--ps.worker.ctr.fields=4", "--ps.worker.ctr.crosses=2",
                    "--ps.worker.ctr.vocabulary=500", "--ps.worker.ctr.train-size=30000", "--ps.worker.ctr.test-size=500",
                    "--ps.worker.ctr.dim=4", "--ps.worker.ctr.hidden1=8", "--ps.worker.ctr.hidden2=4",
                    "--ps.worker.ctr.admit-after=2", "--ps.worker.ctr.evict-after-steps=200",
                    "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=3",
                    "--ps.worker.training.log-interval=2", "--ps.worker.lifecycle.exit-on-finish=false");
            worker.awaitLog(java.util.regex.Pattern.compile("epoch: 1 step: 4, loss is"), Duration.ofMinutes(3));

            try (HeadlessChromium browser = new HeadlessChromium(chromium.get())) {
                browser.open("http://127.0.0.1:" + cluster.schedulerPort() + "/");
                JsonNode[] last = new JsonNode[1];
                String[] problem = {"no evaluation yet"};
                boolean shown = NodeProcess.until(Duration.ofSeconds(60), () -> {
                    try {
                        String state = browser.evaluate(PROBE).asString();
                        if ("loading".equals(state)) {
                            return false;
                        }
                        last[0] = tools.jackson.databind.json.JsonMapper.builder().build().readTree(state);
                    } catch (Exception | AssertionError e) {
                        problem[0] = e.toString();   // the page may still be loading: try again until the deadline
                        return false;
                    }
                    JsonNode s = last[0];
                    return s.get("nodes").size() == 2 && s.get("points").asInt() >= 3
                            && s.get("lines").size() == 1 && s.get("lines").get(0).asInt() >= 3
                            && s.get("updates").asInt() >= 3 && s.get("servers").size() == 1
                            && s.get("servers").get(0).get("pushP99").asDouble() > 0
                            && s.get("tables").size() == 2 && s.get("tables").get(1).get("rows").asLong() > 0;
                });
                assertThat(shown).as("page state " + last[0] + "; last problem: " + problem[0] + "\nchromium log:\n"
                        + browser.log()).isTrue();
                JsonNode s = last[0];
                assertThat(s.get("nodes").toString()).contains("server:ALIVE").contains("worker:ALIVE");
                assertThat(s.get("connection").asString()).isEqualTo("live");
                assertThat(s.get("job").asString()).isIn("RUNNING", "FINISHED");
                assertThat(s.get("events").asInt()).isGreaterThanOrEqualTo(3);
                assertThat(s.get("servers").get(0).get("heap").asLong()).as("the server's heap in use").isPositive();
                assertThat(s.get("servers").get(0).get("cells").asInt()).isEqualTo(7);
                assertThat(s.get("tables").findValuesAsString("name")).containsExactly("ctr.deep", "ctr.wide");
                for (JsonNode table : s.get("tables")) {
                    assertThat(table.get("cells").asInt()).isEqualTo(7);
                    assertThat(table.get("admitted").asLong()).as(table + ": admitted rows").isPositive();
                    assertThat(table.get("dropped").asLong()).as(table + ": gradients dropped before admission")
                            .isPositive();
                }
                assertThat(s.get("windowWidth").asInt()).isEqualTo(HeadlessChromium.WIDTH);
                assertThat(s.get("pageWidth").asInt()).as("the page fits the window: no sideways scrolling")
                        .isLessThanOrEqualTo(s.get("windowWidth").asInt());
            }
        }
    }
}

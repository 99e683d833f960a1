package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The walk-through of docs/client.md, run as written: its command block is read from the page, and each
 * "terminal" section is started as many times as the page says, in its order, on a free port instead of 18080
 * (the build and the data of the "once" section are already there in the test suite). Both programs must train,
 * rank 0 must write the model, and the page's {@code predict.sh} command must classify the test set with it.
 */
class ClientWalkthroughIT {
    private static final String PAGE = "docs/client.md";
    private static final String DOC_PORT = "18080";
    private static final Pattern TERMINALS = Pattern.compile("^# terminals? (\\d+)(?: and (\\d+))?:");
    private static final Pattern RESULT = Pattern.compile("RESULT rank=(\\d) steps=(\\d+) loss=\\S+ accuracy=([0-9.]+)");

    /** A part of the block: its comment line and its commands (continuation lines joined). */
    private record Section(String heading, List<String> commands) {
        int copies() {
            Matcher m = TERMINALS.matcher(heading);
            return !m.find() ? 0 : m.group(2) == null ? 1 : 2;
        }

        String script(int port) {
            return String.join("\n", commands).replace(DOC_PORT, Integer.toString(port));
        }
    }

    @Test
    void theWalkThroughTrainsTheProgramAsTheJobsWorkersAndItsModelPredicts() throws Exception {
        List<Section> sections = sections(Files.readString(TestPaths.repo().resolve(PAGE)));
        assertThat(sections).extracting(Section::heading).as("the walk-through's parts")
                .anyMatch(h -> h.startsWith("# terminal 1:")).anyMatch(h -> h.startsWith("# afterwards"));
        TestPaths.mnist(); // the "once" section's data, which the test suite fetched
        Path out = TestPaths.repo().resolve("run/library");
        deleteModel(out);
        try (LocalCluster cluster = new LocalCluster("client-walkthrough")) {
            int port = LocalCluster.freePort();
            Map<String, String> env = Map.of("MS_SCHED_PORT", Integer.toString(port));
            List<NodeProcess> programs = new ArrayList<>();
            for (Section section : sections) {
                if (section.heading().startsWith("# afterwards")) {
                    for (NodeProcess program : programs) {
                        assertThat(program.awaitExit(Duration.ofMinutes(5))).as(program.tail()).isZero();
                        Matcher result = RESULT.matcher(program.logText());
                        assertThat(result.find()).as(program.tail()).isTrue();
                        assertThat(Double.parseDouble(result.group(3))).as(program.tail()).isGreaterThan(0.85);
                    }
                    NodeProcess predict = cluster.startShell("predict", env, section.script(port));
                    assertThat(predict.awaitExit(Duration.ofMinutes(2))).as(predict.tail()).isZero();
                    assertThat(predict.logText()).as("predict prints its answer, no nd4j notes")
                            .doesNotContain(" WARN ");
                    assertThat(predict.logText()).as(predict.tail()).containsPattern("accuracy: 0\\.(8[5-9]|9)\\d+ \\(\\d+/10000\\)");
                    continue;
                }
                for (int copy = 0; copy < section.copies(); copy++) {
                    String name = (section.heading().contains("scheduler") ? "scheduler"
                            : section.heading().contains("server") ? "server-" + copy : "worker-program-" + copy);
                    NodeProcess started = cluster.startShell(name, env, section.script(port));
                    if (name.startsWith("worker")) {
                        programs.add(started);
                    }
                }
                if (section.heading().contains("scheduler")) {
                    awaitScheduler(cluster, port);
                }
            }
            assertThat(programs).as("the page starts the program twice").hasSize(2);
            assertThat(out.resolve("model.sd")).isRegularFile();
        }
    }

    /** Waits until the scheduler answers and the secret the nodes on this machine share exists. */
    private static void awaitScheduler(LocalCluster cluster, int port) {
        NodeProcess.poll("the scheduler on port " + port, Duration.ofSeconds(60), () -> LocalCluster.get(port,
                "/api/v1/cluster"));
        Path secret = Path.of(System.getProperty("user.home"), ".jvm-ps", "cluster-secret");
        assertThat(NodeProcess.until(Duration.ofSeconds(10), () -> Files.isRegularFile(secret)))
                .as("the scheduler generated or found " + secret).isTrue();
    }

    /** @return the sections of the first bash block after the walk-through's heading */
    private static List<Section> sections(String page) {
        int heading = page.indexOf("## Walk-through");
        assertThat(heading).as(PAGE + " has a walk-through").isNotNegative();
        int start = page.indexOf("```bash\n", heading) + "```bash\n".length();
        String block = page.substring(start, page.indexOf("```", start));
        List<Section> sections = new ArrayList<>();
        String pending = "";
        for (String line : block.split("\n")) {
            if (line.startsWith("#")) {
                sections.add(new Section(line, new ArrayList<>()));
            } else if (!line.isBlank()) {
                String joined = pending + line;
                if (joined.endsWith("\\")) {
                    pending = joined.substring(0, joined.length() - 1) + " ";
                } else {
                    sections.get(sections.size() - 1).commands().add(joined);
                    pending = "";
                }
            }
        }
        return sections;
    }

    private static void deleteModel(Path out) throws IOException {
        Files.deleteIfExists(out.resolve("model.sd"));
        Files.deleteIfExists(out.resolve("model.json"));
    }
}

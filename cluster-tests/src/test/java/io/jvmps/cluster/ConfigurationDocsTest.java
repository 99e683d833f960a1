package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property table of docs/configuration.md against the configuration metadata Spring Boot's configuration
 * processor writes from the services' {@code @ConfigurationProperties} types (plus common's hand-written entries for
 * the {@code ps.security.*} settings bound at start-up): every {@code ps.*} property the code binds has a row, every
 * row names a property the code binds, and every default the code declares is the one the row states. A row may name
 * siblings ({@code `ps.worker.dataset.csv.header`, `delimiter`}) with one default each ({@code true, `,`}).
 */
class ConfigurationDocsTest {
    private static final List<String> MODULES = List.of("common", "scheduler-service", "server-service",
            "worker-service");
    /** A table row: its property cell (one name, or a name and its siblings: {@code `ps.a.b`, `c`}) and default. */
    /** A property row; the default cell may hold an escaped bar ({@code \|}, as markdown tables write it). */
    private static final Pattern ROW = Pattern.compile(
            "^\\| (`ps\\.[a-z0-9.-]+`(?:, `[a-z0-9-]+`)*)[^|]*\\|[^|]*\\|((?:[^|\\\\]|\\\\\\|)*)\\|");
    /** A row of the old-names table: the old name and the new one, nothing else. */
    private static final Pattern RENAME_ROW = Pattern.compile("^\\| `(ps\\.[a-z0-9.-]+)` \\| `(ps\\.[a-z0-9.-]+)` \\|$");

    @Test
    void everyBoundPropertyHasARowWithItsDefaultAndEveryRowIsBound() throws IOException {
        Map<String, JsonNode> bound = boundProperties();
        Map<String, String> documented = documentedDefaults();
        assertThat(bound).as("the processor found the services' properties").hasSizeGreaterThan(50);

        java.util.Set<String> notBound = new java.util.TreeSet<>(documented.keySet());
        notBound.removeAll(bound.keySet());
        java.util.Set<String> notDocumented = new java.util.TreeSet<>(bound.keySet());
        notDocumented.removeAll(documented.keySet());
        assertThat(notBound).as("rows in docs/configuration.md naming no bound property").isEmpty();
        assertThat(notDocumented).as("bound properties without a row in docs/configuration.md").isEmpty();

        List<String> wrong = new ArrayList<>();
        bound.forEach((name, property) -> {
            JsonNode value = property.get("defaultValue");
            boolean duration = "java.time.Duration".equals(property.path("type").asString());
            if (value != null && !value.isNull() && !sameDefault(value.asString(), documented.get(name), duration)) {
                wrong.add(name + ": code " + value.asString() + ", docs " + documented.get(name));
            }
        });
        assertThat(wrong).as("defaults in docs/configuration.md that are not the code's").isEmpty();
    }

    @Test
    void theOldNamesTableIsTheMetadatasDeprecations() throws IOException {
        Map<String, String> deprecated = new TreeMap<>();
        metadata().forEach((name, property) -> {
            if (property.has("deprecation")) {
                deprecated.put(name, property.get("deprecation").get("replacement").asString());
            }
        });
        Map<String, String> documented = new TreeMap<>();
        for (String line : Files.readAllLines(TestPaths.repo().resolve("docs/configuration.md"))) {
            Matcher m = RENAME_ROW.matcher(line);
            if (m.matches()) {
                documented.put(m.group(1), m.group(2));
            }
        }
        assertThat(deprecated).as("old names the worker still binds").hasSizeGreaterThan(20);
        assertThat(documented).as("docs/configuration.md, \"Old worker property names\"").isEqualTo(deprecated);
        assertThat(boundProperties()).as("every new name is bound").containsKeys(deprecated.values().toArray(String[]::new));
    }

    /** @return every {@code ps.*} property the services bind under its current name, by name */
    private static Map<String, JsonNode> boundProperties() throws IOException {
        Map<String, JsonNode> bound = new TreeMap<>(metadata());
        bound.values().removeIf(property -> property.has("deprecation"));
        return bound;
    }

    /** @return every {@code ps.*} property of the services' metadata, old names included, by name */
    private static Map<String, JsonNode> metadata() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        Map<String, JsonNode> properties = new TreeMap<>();
        for (String module : MODULES) {
            Path file = TestPaths.repo().resolve(module).resolve("target/classes/META-INF/spring-configuration-metadata.json");
            assertThat(file).as("metadata of " + module + " (build the module first)").isRegularFile();
            for (JsonNode property : json.readTree(Files.readString(file)).get("properties")) {
                String name = property.get("name").asString();
                if (name.startsWith("ps.")) {
                    properties.put(name, property);
                }
            }
        }
        return properties;
    }

    /** @return each documented property's default as the table states it */
    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> rows = new TreeMap<>();
        for (String line : Files.readAllLines(TestPaths.repo().resolve("docs/configuration.md"))) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            String[] names = m.group(1).replace("`", "").split(", ");
            String[] defaults = m.group(2).trim().split(", ");
            String prefix = names[0].substring(0, names[0].lastIndexOf('.') + 1);
            for (int i = 0; i < names.length; i++) {
                String name = i == 0 ? names[0] : prefix + names[i];
                rows.put(name, defaults.length == names.length ? defaults[i].trim() : m.group(2).trim());
            }
        }
        return rows;
    }

    /**
     * @param code the metadata's default ("10s", "0.001", "WHOLE_PUSH", "true")
     * @param docs the table's default cell ("10s", "0.001", "WHOLE_PUSH", "(empty: plain)", "0 (= worker-num)")
     * @param duration whether the property is a {@link java.time.Duration} ("0" and "0ms" are the same then)
     */
    static boolean sameDefault(String code, String docs, boolean duration) {
        String stated = docs.replace("`", "").replace("\\|", "|").trim();
        if (stated.startsWith("(empty")) {
            stated = "";
        } else if (stated.contains(" (")) {
            stated = stated.substring(0, stated.indexOf(" (")).trim();
        }
        if (stated.equals(code)) {
            return true;
        }
        if (duration) {
            return nanos(stated) == nanos(code);
        }
        try {
            return new BigDecimal(stated).compareTo(new BigDecimal(code)) == 0;
        } catch (NumberFormatException notNumbers) {
            return normalEnum(stated).equals(normalEnum(code));
        }
    }

    /** @return a duration in Spring's simple form ("30s", "5m", "0"; no unit: milliseconds) in nanoseconds */
    private static long nanos(String value) {
        Matcher m = Pattern.compile("^(\\d+)(ns|us|ms|s|m|h|d)?$").matcher(value);
        if (!m.matches()) {
            return Long.MIN_VALUE;
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ns" -> amount;
            case "us" -> amount * 1_000L;
            case "ms" -> amount * 1_000_000L;
            case "s" -> amount * 1_000_000_000L;
            case "m" -> amount * 60_000_000_000L;
            case "h" -> amount * 3_600_000_000_000L;
            default -> amount * 86_400_000_000_000L;
        };
    }

    private static String normalEnum(String value) {
        return value.toUpperCase(Locale.ROOT).replace('-', '_');
    }
}

package io.jvmps.common.cluster;

import java.util.function.Consumer;

/**
 * Parses the scheduler's cluster view stream ({@code GET /api/v1/cluster/stream}), a text/event-stream,
 * one line at a time: {@code data:} lines are collected and handed over as one event's data at the
 * blank line that ends the event, when the event is named {@code view} (or not named); comments
 * ({@code :keep-alive}) and other fields are only counted as signs of life. Not thread-safe: one reader
 * per stream.
 */
public final class ClusterViewEvents {
    private final Consumer<String> views;
    private final StringBuilder data = new StringBuilder();
    private String event = "";

    /** @param views told the data of every complete {@code view} event (its JSON text) */
    public ClusterViewEvents(Consumer<String> views) {
        this.views = views;
    }

    /** @param line one line of the stream, without its line terminator */
    public void line(String line) {
        if (line.isEmpty()) {
            if (!data.isEmpty() && (event.isEmpty() || event.equals("view"))) {
                views.accept(data.toString());
            }
            data.setLength(0);
            event = "";
        } else if (line.startsWith("data:")) {
            if (!data.isEmpty()) {
                data.append('\n');
            }
            data.append(value(line, 5));
        } else if (line.startsWith("event:")) {
            event = value(line, 6);
        }
    }

    private static String value(String line, int from) {
        return line.startsWith(" ", from) ? line.substring(from + 1) : line.substring(from);
    }
}

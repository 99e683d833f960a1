package io.jvmps.client.transport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jvmps.common.security.ClusterSecret;
import io.rsocket.core.RSocketClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

import java.util.List;
import java.util.concurrent.CancellationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program that uses the client library's connections without the rest of it (no {@code PsJob}) still gets the
 * one-line handling of errors Reactor drops: closing a connection to a node that is down drops a cancellation,
 * which Reactor's default logs as an ERROR with a stack trace.
 */
class ConnectionSettingsTest {
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private Level rootLevel;

    @BeforeEach
    void capture() {
        rootLevel = root.getLevel();
        root.setLevel(Level.DEBUG);
        events.start();
        root.addAppender(events);
    }

    @AfterEach
    void release() {
        root.detachAppender(events);
        root.setLevel(rootLevel);
    }

    @Test
    void aConnectionMakesDroppedCancellationsQuiet() {
        RSocketClient client = ConnectionSettings.plain(ClusterSecret.of("connection-settings-test-secret"))
                .connect("127.0.0.1", 1, "application/json");
        client.dispose();

        Operators.onErrorDropped(new CancellationException("Disposed"), Context.empty());

        List<ILoggingEvent> logged;
        synchronized (events) { // appends hold the appender's lock; other tests' threads may still log
            logged = List.copyOf(events.list);
        }
        assertThat(logged).as("Reactor's default: an ERROR with a stack trace")
                .noneMatch(e -> e.getLoggerName().equals("reactor.core.publisher.Operators"));
        assertThat(logged).anyMatch(e -> e.getLoggerName().endsWith("DroppedErrors")
                && e.getLevel() == Level.DEBUG && e.getFormattedMessage().contains("Disposed"));
    }
}

package io.jvmps.common.startup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Hooks;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a node does with an error Reactor could not deliver because the stream it belonged to had already ended (a
 * "dropped" error): one log line instead of Reactor's default ERROR with a stack trace. RSocket drops a
 * {@link CancellationException} when a node disposes a connection that never connected (a server that is down while
 * a worker waits for it); that is expected and logged at DEBUG. Anything else is a WARN naming the error. Installed
 * once per JVM: by every service as it starts ({@link DroppedErrorsAtStart}) and by the client library as it
 * makes its first connection. Needs only Reactor and SLF4J; thread-safe.
 */
public final class DroppedErrors {
    private static final Logger log = LoggerFactory.getLogger(DroppedErrors.class);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private DroppedErrors() {
    }

    /** Installs the hook (once; later calls do nothing). */
    public static void install() {
        if (INSTALLED.compareAndSet(false, true)) {
            Hooks.onErrorDropped(DroppedErrors::handle);
        }
    }

    /** @param error an error no subscriber was left to receive */
    static void handle(Throwable error) {
        if (error instanceof CancellationException) {
            log.debug("a cancelled request's late error was dropped: {}", error.getMessage());
        } else {
            log.warn("an error arrived after its request had ended and was dropped: {}", error.toString());
        }
    }
}

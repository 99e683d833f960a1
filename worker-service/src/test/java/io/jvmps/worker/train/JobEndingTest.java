package io.jvmps.worker.train;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.Exceptions;

import static org.assertj.core.api.Assertions.assertThat;

/** A job that did not finish is reported once: a stop as a warning, a named failure as one line, a bug with its trace. */
class JobEndingTest {
    private final Logger log = (Logger) LoggerFactory.getLogger("job-ending-test");

    @Test
    void aFailureTheProductNamesIsOneErrorLineWithItsCodeAndReason() {
        PsException bad = new PsException(ErrorCode.INVALID_ARGUMENT, "train.csv line 18: column 0 'x7' is not a number");
        JobEnding ending = JobEnding.of(bad, false);
        assertThat(ending.stopped()).isFalse();
        assertThat(ending.reason()).isEqualTo("[INVALID_ARGUMENT] train.csv line 18: column 0 'x7' is not a number");

        ILoggingEvent event = logged(ending, bad);
        assertThat(event.getLevel()).isEqualTo(Level.ERROR);
        assertThat(event.getFormattedMessage()).isEqualTo("Worker failed: " + ending.reason());
        assertThat(event.getThrowableProxy()).as("no stack trace").isNull();
    }

    @Test
    void anInterruptedBlockingCallIsAStopNotAFailure() {
        RuntimeException interrupted = Exceptions.propagate(new InterruptedException());
        JobEnding ending = JobEnding.of(interrupted, false);
        assertThat(ending.stopped()).isTrue();
        assertThat(ending.reason()).isEqualTo(JobEnding.STOPPED);

        ILoggingEvent event = logged(ending, interrupted);
        assertThat(event.getLevel()).isEqualTo(Level.WARN);
        assertThat(event.getFormattedMessage()).isEqualTo("Training stopped: " + JobEnding.STOPPED);
        assertThat(event.getThrowableProxy()).isNull();
    }

    @Test
    void aNamedErrorRaisedWhileTheThreadWasInterruptedIsAStop() {
        PsException interrupted = new PsException(ErrorCode.INTERNAL, "interrupted sending to worker 1");
        assertThat(JobEnding.of(interrupted, true).stopped()).isTrue();
        assertThat(JobEnding.of(interrupted, false).stopped()).isFalse();
    }

    @Test
    void anUnforeseenErrorKeepsItsStackTrace() {
        IllegalStateException bug = new IllegalStateException("no such slot");
        JobEnding ending = JobEnding.of(bug, false);
        assertThat(ending.unforeseen()).isTrue();

        ILoggingEvent event = logged(ending, bug);
        assertThat(event.getLevel()).isEqualTo(Level.ERROR);
        assertThat(event.getFormattedMessage()).isEqualTo("Worker failed: no such slot");
        assertThat(event.getThrowableProxy().getClassName()).isEqualTo(IllegalStateException.class.getName());
        assertThat(JobEnding.of(new NullPointerException(), false).reason()).isEqualTo("java.lang.NullPointerException");
    }

    private ILoggingEvent logged(JobEnding ending, RuntimeException error) {
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        log.addAppender(events);
        try {
            ending.log(log, error);
        } finally {
            log.detachAppender(events);
        }
        assertThat(events.list).hasSize(1);
        return events.list.get(0);
    }
}

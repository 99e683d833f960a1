package io.jvmps.common.startup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

import java.util.concurrent.CancellationException;

import static org.assertj.core.api.Assertions.assertThat;

/** A dropped error is one line (or none for a cancelled connection), never Reactor's ERROR with a stack trace. */
@ExtendWith(OutputCaptureExtension.class)
class DroppedErrorsTest {

    @Test
    void aDroppedCancellationIsQuietAndAnyOtherErrorIsOneWarningLine(CapturedOutput output) {
        DroppedErrors.install();
        DroppedErrors.install();                            // a second start in the same JVM changes nothing

        Operators.onErrorDropped(new CancellationException("Disposed"), Context.empty());
        Operators.onErrorDropped(new IllegalStateException("late answer"), Context.empty());

        assertThat(output).doesNotContain("Operator called default onErrorDropped").doesNotContain("\tat ")
                .contains("an error arrived after its request had ended and was dropped: "
                        + "java.lang.IllegalStateException: late answer");
        assertThat(output.toString().split("late answer", -1)).as("logged once").hasSize(2);
    }
}

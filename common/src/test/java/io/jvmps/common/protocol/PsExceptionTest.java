package io.jvmps.common.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PsExceptionTest {

    @Test
    void messageIsCodeInBracketsThenDetail() {
        PsException e = new PsException(ErrorCode.UNKNOWN_KEY, "no slice p1/s2");

        assertThat(e).hasMessage("[UNKNOWN_KEY] no slice p1/s2");
        assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_KEY);
        assertThat(e.detail()).isEqualTo("no slice p1/s2");
        assertThat(e).isInstanceOf(RuntimeException.class);
    }

    @Test
    void codeIsRequired() {
        assertThatThrownBy(() -> new PsException(null, "x")).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyCodeSurvivesARemoteRoundTrip(ErrorCode code) {
        PsException original = new PsException(code, "key 5: expected 10 elements, got 9");

        PsException back = PsException.fromRemoteMessage(original.getMessage());

        assertThat(back.code()).isEqualTo(code);
        assertThat(back.detail()).isEqualTo(original.detail());
        assertThat(back).hasMessage(original.getMessage());
    }

    @Test
    void multiLineAndBracketedDetailsSurviveARoundTrip() {
        String detail = "slices [p0/s1, p2/s0] missing\nworkers [1, 3] have not pushed";
        PsException back = PsException.fromRemoteMessage(new PsException(ErrorCode.TIMEOUT, detail).getMessage());

        assertThat(back.code()).isEqualTo(ErrorCode.TIMEOUT);
        assertThat(back.detail()).isEqualTo(detail);
    }

    @Test
    void emptyDetailSurvivesARoundTrip() {
        PsException back = PsException.fromRemoteMessage(new PsException(ErrorCode.NOT_READY, "").getMessage());

        assertThat(back.code()).isEqualTo(ErrorCode.NOT_READY);
        assertThat(back.detail()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[NO_SUCH_CODE] something broke", "connection reset by peer", "[timeout] lower case",
            "[TIMEOUT]no space", " [TIMEOUT] leading space", ""})
    void unrecognisedMessagesBecomeInternalKeepingTheText(String message) {
        PsException e = PsException.fromRemoteMessage(message);

        assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(e.detail()).isEqualTo(message);
        assertThat(e).hasMessage("[INTERNAL] " + message);
    }

    @Test
    void nullMessageBecomesInternal() {
        PsException e = PsException.fromRemoteMessage(null);

        assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(e.detail()).isEqualTo("(no message)");
    }

    @Test
    void errorBodyCarriesCodeNameAndDetail() {
        ErrorBody body = ErrorBody.of(new PsException(ErrorCode.INVALID_ARGUMENT, "role must be SERVER or WORKER"));

        assertThat(body.code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(body.message()).isEqualTo("role must be SERVER or WORKER");
    }
}

package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which servers may create their parameters afresh: all but a replacement of a running job without a checkpoint. */
class LostStateTest {
    private static final CheckpointRestorer NO_CHECKPOINT = new CheckpointRestorer(null, null, new DenseStore(), null);
    private static final CheckpointRestorer A_CHECKPOINT = new CheckpointRestorer(
            new CheckpointImage(40, List.of(), "SGD", 0, new float[0][], new float[0][][], List.of(), List.of(), List.of()),
            null, new DenseStore(), null);

    @Test
    void aReplacementOfARunningJobWithoutACheckpointHasLostItsState() {
        ServerIdentity identity = ServerIdentity.unregistered();
        identity.assignFirst(1, "server-1-abcd", true);
        LostState state = new LostState(identity, NO_CHECKPOINT);
        assertThat(state.lost()).isTrue();
        assertThatThrownBy(() -> state.requireNotLost("an init of slice 0/3"))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STATE_LOST))
                .hasMessageContaining("server rank 1 replaced a lost server of a running job")
                .hasMessageContaining("an init of slice 0/3 would start at fresh values next to trained ones")
                .hasMessageContaining("ps.checkpoint.dir");
    }

    @Test
    void aCheckpointToRestoreOrAJobNotStartedYetMayCreateSlices() {
        ServerIdentity replacement = ServerIdentity.unregistered();
        replacement.assignFirst(1, "server-1-abcd", true);
        assertThat(new LostState(replacement, A_CHECKPOINT).lost()).as("restores the checkpoint").isFalse();

        ServerIdentity original = ServerIdentity.unregistered();
        original.assignFirst(0, "server-0-abcd", false);
        assertThatCode(() -> new LostState(original, NO_CHECKPOINT).requireNotLost("x")).doesNotThrowAnyException();
        original.assignFirst(0, "server-0-abcd", true); // the scheduler restarted and the job had started: same process
        assertThat(new LostState(original, NO_CHECKPOINT).lost()).as("its slices are still here").isFalse();
        assertThat(new LostState(ServerIdentity.standalone(0), NO_CHECKPOINT).lost()).isFalse();
    }
}

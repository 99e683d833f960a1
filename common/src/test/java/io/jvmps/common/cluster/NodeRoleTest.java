package io.jvmps.common.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeRoleTest {

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {
            "server|SERVER", "SERVER|SERVER", "Server|SERVER", "'  worker '|WORKER", "WORKER|WORKER",
            "scheduler|SCHEDULER", "MS_SCHED|SCHEDULER", "MS_PSERVER|SERVER", "MS_WORKER|WORKER",
            "ms_pserver|SERVER", "' MS_WORKER'|WORKER",
    })
    void parsesOurNamesAndMindSporeNames(String text, NodeRole expected) {
        assertThat(NodeRole.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"pserver", "MS_SERVER", "workers", "  ", "MS_"})
    void rejectsAnythingElseListingTheAcceptedValues(String text) {
        assertThatThrownBy(() -> NodeRole.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown role '" + text + "'")
                .hasMessageContaining("accepted: scheduler, server, worker, MS_SCHED, MS_PSERVER, MS_WORKER");
    }

    @Test
    void labelsAndMindSporeNames() {
        assertThat(NodeRole.SERVER.label()).isEqualTo("server");
        assertThat(NodeRole.WORKER.label()).isEqualTo("worker");
        assertThat(NodeRole.SCHEDULER.label()).isEqualTo("scheduler");
        assertThat(NodeRole.SCHEDULER.mindSporeName()).isEqualTo("MS_SCHED");
        assertThat(NodeRole.SERVER.mindSporeName()).isEqualTo("MS_PSERVER");
        assertThat(NodeRole.WORKER.mindSporeName()).isEqualTo("MS_WORKER");
    }

    @Test
    void everyRoleParsesFromItsOwnNames() {
        for (NodeRole role : NodeRole.values()) {
            assertThat(NodeRole.parse(role.label())).isEqualTo(role);
            assertThat(NodeRole.parse(role.name())).isEqualTo(role);
            assertThat(NodeRole.parse(role.mindSporeName())).isEqualTo(role);
        }
    }
}

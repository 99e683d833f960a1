package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PolicyFactory} maps every mode of the common enum to its policy. */
class PolicyFactoryTest {
    private static final Map<ConsistencyMode, Class<?>> EXPECTED = Map.of(
            ConsistencyMode.SYNC, SyncPolicy.class,
            ConsistencyMode.ASYNC, AsyncPolicy.class,
            ConsistencyMode.SSP, SspPolicy.class,
            ConsistencyMode.GEO, GeoPolicy.class);

    @ParameterizedTest
    @EnumSource(ConsistencyMode.class)
    void everyModeGetsItsOwnPolicy(ConsistencyMode mode) {
        ConsistencyPolicy policy = PolicyFactory.create(mode,
                PolicyFixture.context(new DenseStore(), PolicyFixture.sgd(0.1), 2, 1));
        assertThat(policy).isExactlyInstanceOf(EXPECTED.get(mode));
        assertThat(policy.mode()).isEqualTo(mode);
    }

    @Test
    void onlyModesThatKeepClocksReportThem() {
        for (ConsistencyMode mode : ConsistencyMode.values()) {
            ConsistencyPolicy policy = PolicyFactory.create(mode,
                    PolicyFixture.context(new DenseStore(), PolicyFixture.sgd(0.1), 3, 1));
            boolean clocks = mode != ConsistencyMode.SYNC;
            assertThat(policy.workerClocks()).as(mode.name()).isEqualTo(clocks ? List.of(0L, 0L, 0L)
                    : List.of());
        }
    }

    @Test
    void settingsKeepOnlyTheParametersOfTheirMode() {
        assertThat(ConsistencySettings.of(ConsistencyMode.SYNC, 3, 10, 0.05))
                .isEqualTo(new ConsistencySettings(ConsistencyMode.SYNC, 0, 0, 0.0));
        assertThat(ConsistencySettings.of(ConsistencyMode.ASYNC, 3, 10, 0.05))
                .isEqualTo(new ConsistencySettings(ConsistencyMode.ASYNC, 0, 0, 0.0));
        assertThat(ConsistencySettings.of(ConsistencyMode.SSP, 3, 10, 0.05))
                .isEqualTo(new ConsistencySettings(ConsistencyMode.SSP, 3, 0, 0.0));
        assertThat(ConsistencySettings.of(ConsistencyMode.GEO, 3, 10, 0.05))
                .isEqualTo(new ConsistencySettings(ConsistencyMode.GEO, 0, 10, 0.05));
        assertThat(ConsistencySettings.of(ConsistencyMode.SSP, 2, 10, 0.05).describe()).isEqualTo("SSP(staleness=2)");
        assertThat(ConsistencySettings.of(ConsistencyMode.GEO, 2, 4, 0.5).describe())
                .isEqualTo("GEO(interval=4, lr=0.5)");
    }
}

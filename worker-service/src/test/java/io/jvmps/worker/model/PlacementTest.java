package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The placement one-liners, their checks, and a shard map over the PS-managed parameters only. */
class PlacementTest {
    private static final List<ParamSpec> LENET = List.of(new ParamSpec("conv1_W", new long[] {5, 5, 1, 6}),
            new ParamSpec("conv1_b", new long[] {6}), new ParamSpec("fc1_W", new long[] {400, 120}),
            new ParamSpec("fc1_b", new long[] {120}));

    @Test
    void allOnPsKeepsEveryParameterOnTheServers() {
        assertThat(Placement.allOnPs().psParams(LENET)).isEqualTo(LENET);
        assertThat(Placement.allOnPs().localParams(LENET)).isEmpty();
        assertThat(Placement.workerLocal()).isSameAs(Placement.allOnPs());
    }

    @Test
    void workerLocalNamesTheLocalOnesAndKeepsModelOrder() {
        Placement placement = Placement.workerLocal("fc1_b", "conv1_b").check("LENET5", LENET);
        assertThat(names(placement.localParams(LENET))).containsExactly("conv1_b", "fc1_b");
        assertThat(names(placement.psParams(LENET))).containsExactly("conv1_W", "fc1_W");
    }

    @Test
    void onPsNamesThePsOnesAndEverythingElseIsLocal() {
        Placement placement = Placement.onPs("fc1_W", "fc1_b").check("LENET5", LENET);
        assertThat(names(placement.psParams(LENET))).containsExactly("fc1_W", "fc1_b");
        assertThat(names(placement.localParams(LENET))).containsExactly("conv1_W", "conv1_b");
    }

    @Test
    void anUnknownNameFailsNamingItAndTheModelsParameters() {
        assertThatThrownBy(() -> Placement.workerLocal("conv9_W").check("LENET5", LENET))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("'conv9_W'")
                .hasMessageContaining("[conv1_W, conv1_b, fc1_W, fc1_b]");
    }

    @Test
    void nothingLeftOnThePsIsRejected() {
        assertThatThrownBy(() -> Placement.onPs().check("LENET5", LENET)).isInstanceOf(PsException.class)
                .hasMessageContaining("no parameter");
        assertThatThrownBy(() -> Placement.workerLocal(" ")).isInstanceOf(PsException.class)
                .hasMessageContaining("blank");
    }

    @Test
    void theShardMapCoversOnlyPsParametersInModelOrder() {
        List<ParamSpec> ps = Placement.workerLocal("conv1_W", "fc1_b").psParams(LENET);
        ShardMap map = ShardMap.compute(ps, 2);
        assertThat(names(map.params())).containsExactly("conv1_b", "fc1_W");
        long elements = 0;
        for (int s = 0; s < 2; s++) {
            for (Slice slice : map.slicesOf(s)) {
                assertThat(slice.paramName()).isIn("conv1_b", "fc1_W");
                elements += slice.length();
            }
        }
        assertThat(elements).isEqualTo(6 + 400 * 120);
    }

    @Test
    void aModelCarriesItsPlacementAndRefusesUnknownNames() {
        TrainableModel model = new SoftmaxRegression(4, 3);
        assertThat(model.placement()).isSameAs(Placement.allOnPs());
        model.place(Placement.workerLocal("b"));
        assertThat(names(model.localParams())).containsExactly("b");
        assertThat(names(model.psParams())).containsExactly("W");
        assertThatThrownBy(() -> model.place(Placement.workerLocal("bias"))).isInstanceOf(PsException.class)
                .hasMessageContaining("[W, b]");
        assertThat(names(model.localParams())).as("unchanged after a refused placement").containsExactly("b");
        assertThatThrownBy(() -> ModelType.LENET5.check(Placement.workerLocal("b"))).isInstanceOf(PsException.class)
                .hasMessageContaining("conv1_W");
    }

    private static List<String> names(List<ParamSpec> specs) {
        return specs.stream().map(ParamSpec::name).toList();
    }
}

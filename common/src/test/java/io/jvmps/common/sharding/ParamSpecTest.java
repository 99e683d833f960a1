package io.jvmps.common.sharding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamSpecTest {

    @Test
    void countsElements() {
        assertThat(new ParamSpec("conv1_W", new long[] {5, 5, 1, 6}).elements()).isEqualTo(150);
        assertThat(new ParamSpec("b", new long[] {1}).elements()).isEqualTo(1);
        assertThat(new ParamSpec("scalar", new long[0]).elements()).isEqualTo(1);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t\n"})
    void rejectsBlankNames(String name) {
        assertThatThrownBy(() -> new ParamSpec(name, new long[] {3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parameter name must not be blank");
    }

    @Test
    void rejectsZeroAndNegativeDimensionsNamingTheParameter() {
        assertThatThrownBy(() -> new ParamSpec("fc1_W", new long[] {400, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fc1_W")
                .hasMessageContaining("dimension 0 in shape [400, 0]")
                .hasMessageContaining(">= 1");
        assertThatThrownBy(() -> new ParamSpec("w", new long[] {-2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension -2");
    }

    @Test
    void acceptsExactlyMaxElements() {
        assertThat(new ParamSpec("big", new long[] {ParamSpec.MAX_ELEMENTS}).elements())
                .isEqualTo(ParamSpec.MAX_ELEMENTS);
    }

    @Test
    void rejectsMoreThanMaxElementsWithAClearMessage() {
        assertThatThrownBy(() -> new ParamSpec("huge", new long[] {ParamSpec.MAX_ELEMENTS + 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("huge")
                .hasMessageContaining((ParamSpec.MAX_ELEMENTS + 1) + " elements")
                .hasMessageContaining("limit of " + ParamSpec.MAX_ELEMENTS);
    }

    @Test
    void rejectsAShapeWhoseElementCountOverflowsWithAClearMessage() {
        assertThatThrownBy(() -> new ParamSpec("absurd", new long[] {1L << 32, 1L << 32}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absurd")
                .hasMessageContaining("limit of " + ParamSpec.MAX_ELEMENTS);
    }

    @Test
    void copiesTheShapeItIsGiven() {
        long[] shape = {2, 3};
        ParamSpec spec = new ParamSpec("w", shape);
        shape[0] = 100;

        assertThat(spec.shape()).containsExactly(2, 3);
        assertThat(spec.elements()).isEqualTo(6);
    }

    @Test
    void equalityComparesShapeContents() {
        assertThat(new ParamSpec("w", new long[] {2, 3}))
                .isEqualTo(new ParamSpec("w", new long[] {2, 3}))
                .hasSameHashCodeAs(new ParamSpec("w", new long[] {2, 3}))
                .isNotEqualTo(new ParamSpec("w", new long[] {3, 2}))
                .isNotEqualTo(new ParamSpec("v", new long[] {2, 3}))
                .hasToString("w[2, 3]");
    }
}

package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelTypeTest {

    @Test
    void createsEachModelWithTheRequestedSizes() {
        TrainableModel softmax = ModelType.SOFTMAX.create(12, 3);
        assertThat(softmax).isInstanceOf(SoftmaxRegression.class);
        assertThat(softmax.inputSize()).isEqualTo(12);
        assertThat(softmax.numClasses()).isEqualTo(3);

        TrainableModel lenet = ModelType.LENET5.create(784, 10);
        assertThat(lenet).isInstanceOf(LeNet5.class);
    }

    @Test
    void refusesSizesAModelCannotTake() {
        assertThatThrownBy(() -> ModelType.LENET5.create(100, 10))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("LENET5").hasMessageContaining("784").hasMessageContaining("100");
        assertThatThrownBy(() -> ModelType.SOFTMAX.create(0, 10))
                .isInstanceOf(PsException.class).hasMessageContaining("input size");
        assertThatThrownBy(() -> ModelType.SOFTMAX.create(4, 1))
                .isInstanceOf(PsException.class).hasMessageContaining("classes");
    }
}

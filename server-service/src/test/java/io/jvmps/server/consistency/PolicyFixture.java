package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Builds pushes against a store and reads slices back, for driving policies directly in tests. */
final class PolicyFixture {
    private PolicyFixture() {
    }

    /** @return plain SGD with the given learning rate */
    static Optimizer sgd(double learningRate) {
        return OptimizerType.SGD.create(new OptimizerSettings(learningRate, 0, false, 0.9, 0.999, 1e-8));
    }

    /** @return Adam with the given learning rate and the usual betas */
    static Optimizer adam(double learningRate) {
        return OptimizerType.ADAM.create(new OptimizerSettings(learningRate, 0.9, false, 0.9, 0.999, 1e-8));
    }

    /** @return a context of 2 minutes' pull deadline */
    static PolicyContext context(DenseStore store, Optimizer optimizer, int workers, int staleness) {
        return new PolicyContext(store, optimizer, workers, Duration.ofSeconds(120), staleness);
    }

    /** @return a push of {@code sender} for {@code step}: key, float[] pairs */
    static GradientPush push(DenseStore store, int sender, long step, Object... keyAndValues) {
        List<GradientPush.SliceGradient> grads = new ArrayList<>();
        for (int i = 0; i < keyAndValues.length; i += 2) {
            grads.add(new GradientPush.SliceGradient(store.require((Long) keyAndValues[i]),
                    Nd4j.createFromArray((float[]) keyAndValues[i + 1])));
        }
        return new GradientPush(sender, step, grads);
    }

    /** @return the slice's values, read under its lock */
    static float[] values(DenseStore store, long key) {
        DenseSlice slice = store.require(key);
        slice.lock();
        try {
            return slice.values().toFloatVector();
        } finally {
            slice.unlock();
        }
    }

    /** Asserts the call fails with the code and a message containing {@code detail}. */
    static void assertCode(Runnable call, ErrorCode code, String detail) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(PsException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).startsWith("[" + code + "] ").contains(detail);
        });
    }
}

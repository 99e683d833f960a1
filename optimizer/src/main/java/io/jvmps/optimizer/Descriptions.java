package io.jvmps.optimizer;

import io.jvmps.common.optimizer.schedule.ConstantSchedule;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

/** Builds the {@code NAME(params[, schedule=...])} strings of {@link Optimizer#describe()}. */
final class Descriptions {
    private Descriptions() {
    }

    /**
     * @param name     the optimizer's type name
     * @param params   its hyper-parameters, e.g. {@code "lr=0.1, momentum=0.9"}
     * @param schedule its schedule; a plain constant rate is left out
     * @return e.g. {@code SGD(lr=0.1)} or {@code SGD(lr=0.1, schedule=STEP(step-size=10, gamma=0.5))}
     */
    static String of(String name, String params, LearningRateSchedule schedule) {
        String tail = schedule instanceof ConstantSchedule ? "" : ", schedule=" + schedule.describe();
        return name + "(" + params + tail + ")";
    }
}

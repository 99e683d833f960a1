package io.jvmps.common.optimizer.schedule;

/**
 * The learning rate as a function of the update count. Implementations are immutable and thread-safe.
 */
public interface LearningRateSchedule {

    /**
     * @param update 1-based count of updates applied to the slice, including this one (the same count
     *               Adam's bias correction uses)
     * @return the learning rate for that update, &gt;= 0
     */
    double rate(long update);

    /** @return a short description with the parameters, for status pages and logs */
    String describe();
}

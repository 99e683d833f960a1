package io.jvmps.common.protocol;

import io.jvmps.common.optimizer.OptimizerSettings;

/**
 * What a worker must know about the servers' training semantics before its first step, answered by
 * route {@link Routes#SERVER_DESCRIBE} (JSON). Every server of a job must describe the same
 * semantics; a worker refuses to train otherwise.
 *
 * @param rank             the answering server's rank
 * @param workers          number of workers the server expects
 * @param mode             consistency mode
 * @param staleness        SSP bound s (steps); 0 unless mode is SSP
 * @param geoInterval      GEO k: local steps between two delta pushes; 0 unless mode is GEO
 * @param geoLearningRate  learning rate of the workers' local plain SGD in GEO mode
 * @param optimizer        the servers' optimizer name (SGD, MOMENTUM, ADAGRAD, ADAM, FTRL)
 * @param optimizerSettings every hyper-parameter of that optimizer and its learning-rate schedule, so
 *                         that a hybrid worker updates its local parameters exactly as the servers do
 */
public record ServerDescription(int rank, int workers, ConsistencyMode mode, int staleness, int geoInterval,
                                double geoLearningRate, String optimizer, OptimizerSettings optimizerSettings) {

    /** @return the servers' base learning rate (before any schedule) */
    public double learningRate() {
        return optimizerSettings.learningRate();
    }

    /** @return true when two servers describe the same training semantics (ranks aside) */
    public boolean sameSemantics(ServerDescription other) {
        return workers == other.workers && mode == other.mode && staleness == other.staleness
                && geoInterval == other.geoInterval && Double.compare(geoLearningRate, other.geoLearningRate) == 0
                && optimizer.equals(other.optimizer) && optimizerSettings.equals(other.optimizerSettings);
    }
}

package io.jvmps.worker.train;

import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.worker.client.PsClient;
import io.jvmps.worker.data.LabeledData;
import io.jvmps.worker.model.TrainableModel;

/** Picks the training loop that matches the servers' consistency mode. */
final class TrainingLoops {
    private TrainingLoops() {
    }

    static TrainingLoop create(ServerDescription servers, TrainableModel model, PsClient client, LabeledData train,
                               LoopSettings settings, int rank, StepReporter reporter) {
        return switch (servers.mode()) {
            case SYNC, ASYNC, SSP -> new PullComputePushLoop(model, client, train, settings, rank, servers.workers(),
                    reporter);
            case GEO -> new GeoLoop(model, client, train, settings, rank, servers.workers(), reporter,
                    servers.geoInterval(), servers.geoLearningRate());
        };
    }
}

package io.jvmps.worker.train.loop;

import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.StepPlan;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.dataset.Examples;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.worker.placement.LocalParameterSync;

/** Picks the training loop that matches the servers' consistency mode. */
public final class TrainingLoops {
    private TrainingLoops() {
    }

    /**
     * @param localSync keeps worker-local parameters in sync ({@link LocalParameterSync#NONE} when every
     *                  parameter is on the PS); the sync-family loop runs it every step
     * @param dynamic   the steps of dynamic data sharding, or null for this rank's static shard (GEO: always)
     * @param pushed    sums the gradients the SYNC/ASYNC/SSP loop pushes ({@link PushedGradients#none()}: not)
     */
    public static TrainingLoop create(ServerDescription servers, TrainableModel model, DenseClient client, Examples train,
                               LoopSettings settings, int rank, StepReporter reporter, LocalParameterSync localSync,
                               StepPlan dynamic, PushedGradients pushed) {
        return switch (servers.mode()) {
            case SYNC, ASYNC, SSP -> new PullComputePushLoop(model, client, train, settings, dynamic != null ? dynamic
                    : StepPlan.fixed(train.size(), servers.workers(), rank, settings), reporter, localSync, pushed);
            case GEO -> new GeoLoop(model, client, train, settings, rank, servers.workers(), reporter,
                    servers.geoInterval(), servers.geoLearningRate());
        };
    }
}

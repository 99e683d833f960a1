package io.jvmps.worker.web;

import io.jvmps.worker.train.progress.TrainingState;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/status}: the worker's phase, rank, step, loss, throughput and bytes moved, as JSON. */
@RestController
public class StatusController {
    private final TrainingState state;

    public StatusController(TrainingState state) {
        this.state = state;
    }

    @GetMapping("/api/v1/status")
    public TrainingState.Snapshot status() {
        return state.get();
    }
}

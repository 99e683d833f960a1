package io.jvmps.server.web;

import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.monitor.StatusReporter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/status}: the server's status as JSON. */
@RestController
public class StatusController {
    private final StatusReporter status;

    /** @param status status source */
    public StatusController(StatusReporter status) {
        this.status = status;
    }

    /** @return the current status */
    @GetMapping("/api/v1/status")
    public ServerStatus status() {
        return status.status();
    }
}

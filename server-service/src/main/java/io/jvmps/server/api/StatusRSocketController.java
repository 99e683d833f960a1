package io.jvmps.server.api;

import io.jvmps.common.protocol.Routes;
import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.monitor.StatusReporter;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;

/** Route {@value Routes#SERVER_STATUS} (request-response): the server's status in the connection's data MIME type. */
@Controller
public class StatusRSocketController {
    private final StatusReporter status;

    /** @param status status source */
    public StatusRSocketController(StatusReporter status) {
        this.status = status;
    }

    /** @return the current status */
    @MessageMapping(Routes.SERVER_STATUS)
    public ServerStatus status() {
        return status.status();
    }
}

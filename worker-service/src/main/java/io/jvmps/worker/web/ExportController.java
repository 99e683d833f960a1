package io.jvmps.worker.web;

import io.jvmps.common.protocol.ErrorBody;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.export.ExportRequests;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /api/v1/export} (rank 0, with {@code ps.worker.output.model-dir}): writes the model as it stands at
 * the end of the next training step to {@code <model-dir>/step-<N>/} and answers with its manifest. 503
 * NOT_READY with the reason when this worker cannot export now; 504 TIMEOUT when no step ended within
 * {@code ps.worker.servers.request-timeout}. Needs the cluster secret, as every mutating call.
 */
@RestController
public class ExportController {
    private final ExportRequests exports;
    private final Duration timeout;

    public ExportController(ExportRequests exports, WorkerProperties props) {
        this.exports = exports;
        this.timeout = props.servers().requestTimeout();
    }

    @PostMapping("/api/v1/export")
    public Mono<ResponseEntity<Object>> export() {
        return Mono.fromFuture(exports::request)
                .timeout(timeout)
                .<ResponseEntity<Object>>map(ResponseEntity::ok)
                .onErrorResume(TimeoutException.class, e -> Mono.just(error(new PsException(ErrorCode.TIMEOUT,
                        "no training step ended within " + timeout + " (ps.worker.servers.request-timeout) to export at"))))
                .onErrorResume(PsException.class, e -> Mono.just(error(e)));
    }

    private static ResponseEntity<Object> error(PsException e) {
        HttpStatus status = switch (e.code()) {
            case NOT_READY -> HttpStatus.SERVICE_UNAVAILABLE;
            case TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
            default -> HttpStatus.INTERNAL_SERVER_ERROR;
        };
        return ResponseEntity.status(status).body(ErrorBody.of(e));
    }
}

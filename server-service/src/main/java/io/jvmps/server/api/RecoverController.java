package io.jvmps.server.api;

import io.jvmps.common.protocol.RecoverAnswer;
import io.jvmps.common.protocol.RecoverRequest;
import io.jvmps.common.protocol.Routes;
import io.jvmps.server.checkpoint.Recovery;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Route {@value Routes#RECOVER}: a worker's recovery request after it lost a server (see {@link Recovery}). */
@Controller
public class RecoverController {
    private final Recovery recovery;

    /** Wires the controller. */
    public RecoverController(Recovery recovery) {
        this.recovery = recovery;
    }

    /** @return the newest checkpoint, and the rollback's outcome when one was asked for */
    @MessageMapping(Routes.RECOVER)
    public Mono<RecoverAnswer> recover(RecoverRequest request) {
        // reads checkpoint files and may wait for writes: off the event loop
        return Mono.fromCallable(() -> recovery.handle(request)).subscribeOn(Schedulers.boundedElastic());
    }
}

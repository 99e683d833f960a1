package io.jvmps.worker.allreduce;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.springframework.boot.rsocket.context.RSocketServerInitializedEvent;
import org.springframework.context.ApplicationListener;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The port this worker's RSocket server (the AllReduce endpoint) bound, learnt from Boot's
 * {@link RSocketServerInitializedEvent}; the worker announces it to the scheduler so that peers can
 * find it. Thread-safe.
 */
public class WorkerRSocketPort implements ApplicationListener<RSocketServerInitializedEvent> {
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    @Override
    public void onApplicationEvent(RSocketServerInitializedEvent event) {
        port.complete(event.getServer().address().getPort());
    }

    /**
     * @param timeout how long to wait for the server to start
     * @return the bound port
     * @throws PsException NOT_READY if the server did not start in time
     */
    public int await(Duration timeout) {
        try {
            return port.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new PsException(ErrorCode.NOT_READY, "the worker's RSocket server (spring.rsocket.server.port) did not "
                    + "start within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PsException(ErrorCode.INTERNAL, "interrupted waiting for the worker's RSocket server");
        }
    }
}

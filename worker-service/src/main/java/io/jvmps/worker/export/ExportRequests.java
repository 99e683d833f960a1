package io.jvmps.worker.export;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Exports asked for while the job runs ({@code POST /api/v1/export}): a request waits for the training
 * thread, which serves it at the end of its next step, so the model is never written while a step changes
 * it. Requests that arrive before the next step end share one export. Requests are refused with NOT_READY
 * and the reason while this worker cannot serve them (not training, not rank 0, no export folder). Safe for
 * any number of requesting threads and one training thread.
 */
public final class ExportRequests {
    private static final Logger log = LoggerFactory.getLogger(ExportRequests.class);

    private final Object lock = new Object();
    private String unavailable = "the worker is not training yet";
    private CompletableFuture<ExportManifest> pending;

    /** @return completes with the written manifest, or exceptionally with a {@link PsException} */
    public CompletableFuture<ExportManifest> request() {
        synchronized (lock) {
            if (unavailable != null) {
                return CompletableFuture.failedFuture(new PsException(ErrorCode.NOT_READY, "cannot export now: "
                        + unavailable));
            }
            if (pending == null) {
                pending = new CompletableFuture<>();
            }
            return pending;
        }
    }

    /** From now on requests are served at step ends (the training thread calls {@link #serve}). */
    public void open() {
        synchronized (lock) {
            unavailable = null;
        }
    }

    /**
     * Refuses requests from now on, and the waiting one, with the reason.
     *
     * @param reason why no export can be made, e.g. "training has finished"
     */
    public void close(String reason) {
        synchronized (lock) {
            unavailable = reason;
            if (pending != null) {
                pending.completeExceptionally(new PsException(ErrorCode.NOT_READY, "cannot export now: " + reason));
                pending = null;
            }
        }
    }

    /**
     * Called by the training thread between two steps: writes the export if one was asked for.
     *
     * @param export writes the model and returns its manifest
     */
    public void serve(Supplier<ExportManifest> export) {
        CompletableFuture<ExportManifest> waiting;
        synchronized (lock) {
            waiting = pending;
            pending = null;
        }
        if (waiting == null) {
            return;
        }
        try {
            waiting.complete(export.get());
        } catch (RuntimeException e) {
            log.warn("An export asked for while training failed: {}", e.getMessage());
            waiting.completeExceptionally(e instanceof PsException ? e
                    : new PsException(ErrorCode.INTERNAL, "the export failed: " + e.getMessage()));
        }
    }
}

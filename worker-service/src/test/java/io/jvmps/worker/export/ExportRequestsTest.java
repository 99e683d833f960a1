package io.jvmps.worker.export;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.train.GraphNames;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExportRequestsTest {
    private final ExportRequests exports = new ExportRequests();
    private final ExportManifest manifest = new ExportManifest("samediff", "model.sd", "LENET5", GraphNames.DEFAULT,
            784, 10, "MNIST", null, null, null, "SYNC", 2, 2, 7, 90, 100, 0.9, "t");

    @Test
    void refusedWithTheReasonUntilTrainingOpensAndAfterItCloses() {
        expectNotReady(exports.request(), "cannot export now: the worker is not training yet");
        exports.open();
        CompletableFuture<ExportManifest> waiting = exports.request();
        exports.close("training has ended");
        expectNotReady(waiting, "cannot export now: training has ended");
        expectNotReady(exports.request(), "training has ended");
    }

    @Test
    void requestsBeforeAStepEndShareOneExportWrittenByTheTrainingThread() {
        exports.open();
        AtomicInteger written = new AtomicInteger();
        exports.serve(() -> {
            written.incrementAndGet();
            return manifest;
        });
        assertThat(written).hasValue(0);

        CompletableFuture<ExportManifest> first = exports.request();
        CompletableFuture<ExportManifest> second = exports.request();
        assertThat(first).isNotDone();
        exports.serve(() -> {
            written.incrementAndGet();
            return manifest;
        });
        assertThat(first.join()).isSameAs(manifest);
        assertThat(second.join()).isSameAs(manifest);
        assertThat(written).hasValue(1);
    }

    @Test
    void aFailedExportFailsTheRequestNotTheTrainingThread() {
        exports.open();
        CompletableFuture<ExportManifest> waiting = exports.request();
        exports.serve(() -> {
            throw new java.io.UncheckedIOException("disk full", new java.io.IOException("disk full"));
        });
        assertThatThrownBy(waiting::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
                .hasMessageContaining("the export failed: disk full");
    }

    private static void expectNotReady(CompletableFuture<ExportManifest> future, String message) {
        assertThatThrownBy(future::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_READY))
                .hasMessageContaining(message);
    }
}

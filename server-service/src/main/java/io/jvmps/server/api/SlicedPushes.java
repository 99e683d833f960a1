package io.jvmps.server.api;

import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PushLedger;
import io.jvmps.server.consistency.SliceWisePolicy;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Pushes under {@code ps.server.push-apply=PER_SLICE}: each slice goes to the policy as soon as it is whole and
 * checked, on the apply executor, so the event loop goes on receiving the next slice while one is updated; the
 * slices of one push are applied one after another, in arrival order, and the acknowledgement (or the error)
 * follows the last. A slice that fails stops the rest of that push from being applied; the error names how many
 * were applied before it. Each receive buffer goes back to the slice's pool once applied (or refused). A retry
 * with the push's tag skips the slices applied before ({@link PushLedger#applySliceOnce}). Thread-safe.
 */
final class SlicedPushes implements PushApplication {
    /** Slices of one push queued for their update at most, besides the one being received. */
    static final int AHEAD = 2;
    private final DenseStore store;
    private final SliceWisePolicy policy;
    private final PushLedger ledger;
    private final ChannelReader reader;
    private final Executor applier;
    private final PushChecks checks;

    /** @param applier where slices are applied, off the event loops */
    SlicedPushes(DenseStore store, SliceWisePolicy policy, PushLedger ledger, ChannelReader reader, Executor applier,
                 PushChecks checks) {
        this.store = store;
        this.policy = policy;
        this.ledger = ledger;
        this.reader = reader;
        this.applier = applier;
        this.checks = checks;
    }

    @Override
    public Mono<PushAck> apply(Flux<DataBuffer> inbound) {
        return Mono.defer(() -> {
            Progress progress = new Progress();
            return reader.read(inbound, checks::length, (first, length) -> store.require(first.key()).takeGradientBuffer(),
                            progress::enqueue)
                    .onErrorResume(e -> Mono.fromFuture(progress.settled()).then(Mono.error(e))) // no apply after the answer
                    .flatMap(tensors -> Mono.fromFuture(progress.chain).thenReturn(tensors))
                    .onErrorMap(CompletionException.class, e -> e.getCause() != null ? e.getCause() : e)
                    .map(tensors -> {
                        PushChecks.requireSlices(tensors, "a push");
                        ReceivedTensor first = tensors.get(0);
                        PushAck answer = checks.ack(first.step(), tensors);
                        ledger.completeSliced(first.sender(), first.tag(), first.step(), answer, progress.applied > 0);
                        return answer;
                    })
                    .onErrorMap(PsException.class, e -> progress.applied == 0 ? e : new PsException(e.code(), e.detail()
                            + "; " + progress.applied + " slice(s) of this push before it were applied (ps.server.push-"
                            + "apply=PER_SLICE); a retry with the same tag applies only the rest"));
        });
    }

    /**
     * One push's applies: a chain of tasks on the executor, one per slice. At most {@link #AHEAD} slices wait
     * for their update at a time: the receiver waits for the oldest before queueing another, so a push never
     * holds more than {@code AHEAD + 1} receive buffers, however fast its bytes arrive.
     */
    private final class Progress {
        private final java.util.ArrayDeque<CompletableFuture<Void>> queued = new java.util.ArrayDeque<>(); // receiver side
        private CompletableFuture<Void> chain = CompletableFuture.completedFuture(null); // receiver side
        private volatile int applied; // written by the chain's tasks, one at a time

        /** Called by the receiver (under its lock) as each slice completes; owns {@code t}'s array from here. */
        void enqueue(ReceivedTensor t) {
            while (queued.size() >= AHEAD) {
                queued.poll().handle((ok, failed) -> null).join(); // the update of an earlier slice: milliseconds
            }
            chain = chain.handleAsync((ok, failed) -> {
                if (failed != null) {
                    store.require(t.key()).recycle(t.values()); // an earlier slice failed: this one is not applied
                    throw failed instanceof CompletionException c ? c : new CompletionException(failed);
                }
                if (apply(t, applied == 0)) {
                    applied++;
                }
                return null;
            }, applier);
            queued.add(chain);
        }

        CompletableFuture<Void> settled() {
            return chain.handle((ok, failed) -> null);
        }
    }

    /** @return true when the slice was applied now, false when this push had applied it before */
    private boolean apply(ReceivedTensor t, boolean firstOfPush) {
        DenseSlice slice = store.require(t.key());
        boolean[] taken = {false};
        try {
            return ledger.applySliceOnce(t.sender(), t.tag(), t.step(), t.key(), () -> {
                policy.acceptSlice(new GradientPush(t.sender(), t.step(),
                        List.of(new GradientPush.SliceGradient(slice, t.values()))), firstOfPush);
                taken[0] = true;
            });
        } finally {
            if (!taken[0]) {
                slice.recycle(t.values()); // refused or repeated: nothing kept it
            }
        }
    }
}

package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.GradientPush;
import io.jvmps.server.consistency.PushLedger;
import io.jvmps.server.store.DenseStore;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * Pushes under {@code ps.server.push-apply=WHOLE_PUSH}: every slice is received into its slice's spare buffer and
 * checked, then the policy takes the whole push or none of it. Thread-safe.
 */
final class WholePushes implements PushApplication {
    private final DenseStore store;
    private final ConsistencyPolicy policy;
    private final PushLedger ledger;
    private final ChannelReader reader;
    private final PushChecks checks;

    WholePushes(DenseStore store, ConsistencyPolicy policy, PushLedger ledger, ChannelReader reader,
                PushChecks checks) {
        this.store = store;
        this.policy = policy;
        this.ledger = ledger;
        this.reader = reader;
        this.checks = checks;
    }

    @Override
    public Mono<PushAck> apply(Flux<DataBuffer> inbound) {
        return reader.read(inbound, checks::length, (first, length) -> store.require(first.key()).takeGradientBuffer())
                .map(tensors -> {
                    PushChecks.requireSlices(tensors, "a push");
                    ReceivedTensor first = tensors.get(0);
                    return ledger.applyOnce(first.sender(), first.tag(), first.step(), () -> {
                        List<GradientPush.SliceGradient> gradients = tensors.stream()
                                .map(t -> new GradientPush.SliceGradient(store.require(t.key()), t.values()))
                                .toList();
                        policy.accept(new GradientPush(first.sender(), first.step(), gradients));
                        return checks.ack(first.step(), tensors);
                    });
                });
    }
}

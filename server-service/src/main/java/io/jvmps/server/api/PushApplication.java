package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.server.config.PushApply;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.PushLedger;
import io.jvmps.server.consistency.SliceWisePolicy;
import io.jvmps.server.store.DenseStore;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.concurrent.Executor;

/**
 * How a dense push's slices reach the consistency policy, chosen by {@code ps.server.push-apply}: {@link WholePushes}
 * once the whole push arrived and was checked, {@link SlicedPushes} each slice as it arrives (only with a policy
 * that takes single slices; any other pairing is refused at start-up). Implementations are thread-safe.
 */
public interface PushApplication {

    /**
     * @param inbound the push's tensor frames (one worker, one step, each slice at most once)
     * @return the acknowledgement once the push was taken, or the error (a push repeating the sender's last tag gets
     *         the first answer again, see {@link io.jvmps.server.consistency.PushLedger})
     */
    Mono<PushAck> apply(Flux<DataBuffer> inbound);

    /**
     * @param apply   {@code ps.server.push-apply}
     * @param applier where {@link PushApply#PER_SLICE} applies slices, off the event loops
     * @return the application that {@code apply} names, over {@code policy}
     * @throws IllegalStateException when {@code policy} cannot take what {@code apply} hands it (the store's bean
     *                               refuses such a pairing first, by mode, with {@link PushApply#requireSupports})
     */
    static PushApplication create(PushApply apply, ConsistencyPolicy policy, DenseStore store, PushLedger ledger,
                                  ChannelReader reader, Executor applier, PushChecks checks) {
        if (apply == PushApply.WHOLE_PUSH) {
            return new WholePushes(store, policy, ledger, reader, checks);
        }
        if (!(policy instanceof SliceWisePolicy sliceWise)) {
            throw new IllegalStateException("ps.server.push-apply=" + apply + " needs a policy that takes single "
                    + "slices; " + policy.mode() + " does not");
        }
        return new SlicedPushes(store, sliceWise, ledger, reader, applier, checks);
    }
}

package io.jvmps.server.checkpoint;

import io.jvmps.server.consistency.PushLedger;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Puts checkpointed ledger entries back into a {@link PushLedger}. Stateless. */
final class LedgerEntries {
    private LedgerEntries() {
    }

    static void restore(PushLedger ledger, List<LedgerEntry> entries) {
        if (ledger == null) {
            return;
        }
        Map<Integer, PushLedger.Entry> bySender = new HashMap<>();
        for (LedgerEntry e : entries) {
            bySender.put(e.sender(), new PushLedger.Entry(e.tag(), e.step(), e.ack()));
        }
        ledger.restore(bySender);
    }
}

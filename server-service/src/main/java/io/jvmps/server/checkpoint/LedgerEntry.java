package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.PushAck;

/**
 * A worker's last push as a server's push ledger remembered it at a checkpoint (see
 * {@code PushLedger}): restored with the parameters so a retried push is still recognised.
 *
 * @param sender worker rank
 * @param tag    the push's tag
 * @param step   the push's step (before the checkpoint's step)
 * @param ack    the acknowledgement it got
 */
public record LedgerEntry(int sender, long tag, long step, PushAck ack) {
}

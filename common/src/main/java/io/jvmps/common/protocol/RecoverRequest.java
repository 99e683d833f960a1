package io.jvmps.common.protocol;

/**
 * A worker's recovery request after it lost a server. With {@code step < 0} it only asks: the server
 * finishes its pending checkpoint writes and answers the newest complete checkpoint. With
 * {@code step >= 0} it rolls back to that checkpoint, once per server set: a repeat with the same
 * {@code servers} and step (another worker recovering from the same failure) changes nothing.
 *
 * @param servers the server set now: node ids by rank, comma-separated
 * @param step    the checkpoint step to roll back to, or -1 to ask
 */
public record RecoverRequest(String servers, long step) {
}

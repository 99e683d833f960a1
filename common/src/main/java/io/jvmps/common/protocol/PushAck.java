package io.jvmps.common.protocol;

/**
 * A server's answer to an init or push channel, sent once every frame of the channel was
 * validated and accepted (JSON on the wire).
 *
 * @param server   rank of the answering server
 * @param step     the step the frames carried ({@code -1} for init)
 * @param slices   number of distinct slices accepted
 * @param elements number of float elements accepted in total
 */
public record PushAck(int server, long step, int slices, long elements) {
}

package io.jvmps.worker.allreduce;

import io.jvmps.client.allreduce.AllReduceRoutes;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;

/**
 * Route {@value AllReduceRoutes#SEGMENT} (request-response) on the worker's RSocket server: decodes
 * one segment chunk from the left neighbour into the {@link AllReduceMailbox} and answers empty.
 * Never waits; releases every buffer. A bad frame is answered with its error code.
 */
@Controller
public class AllReduceController {
    private final AllReduceMailbox mailbox;

    /** @param mailbox where segments land */
    public AllReduceController(AllReduceMailbox mailbox) {
        this.mailbox = mailbox;
    }

    /** Takes one chunk. */
    @MessageMapping(AllReduceRoutes.SEGMENT)
    public Mono<Void> segment(DataBuffer frame) {
        return Mono.fromRunnable(() -> {
            TensorChunk chunk = null;
            try {
                chunk = TensorChunkCodec.decode(unwrap(frame));
                mailbox.deliver(chunk);
            } finally {
                if (chunk != null) {
                    chunk.release();
                }
                DataBufferUtils.release(frame);
            }
        });
    }

    private static ByteBuf unwrap(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            return netty.getNativeBuffer();
        }
        byte[] bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
        return Unpooled.wrappedBuffer(bytes);
    }
}

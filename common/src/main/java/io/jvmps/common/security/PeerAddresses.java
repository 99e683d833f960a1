package io.jvmps.common.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.DuplexConnection;
import io.rsocket.RSocketErrorException;
import io.rsocket.plugins.DuplexConnectionInterceptor;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import java.net.SocketAddress;

/**
 * Which remote address the RSocket frame being handled on this thread came from, so that log lines about a
 * request (a refused SETUP, a stalled stream) can name the peer. RSocket hands each inbound frame to its
 * handlers synchronously on the connection's event-loop thread; the {@link #interceptor()} wraps every
 * accepted connection so that, while one of its frames is being handled, {@link #current()} returns its
 * remote address. Anything that runs later (a timer, another thread) must capture it first. Thread-safe.
 */
public final class PeerAddresses {
    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private PeerAddresses() {
    }

    /** @return the remote address of the connection whose frame this thread handles, or "an unknown peer" */
    public static String current() {
        String peer = CURRENT.get();
        return peer != null ? peer : "an unknown peer";
    }

    /** @return an interceptor to register with {@code InterceptorRegistry.forConnection} on an RSocket server */
    public static DuplexConnectionInterceptor interceptor() {
        return (type, connection) -> type == DuplexConnectionInterceptor.Type.SOURCE
                ? new Tagged(connection) : connection;
    }

    /** A connection whose inbound frames are handled with its remote address as the current peer. */
    private static final class Tagged implements DuplexConnection {
        private final DuplexConnection delegate;
        private final String peer;

        Tagged(DuplexConnection delegate) {
            this.delegate = delegate;
            SocketAddress remote = delegate.remoteAddress();
            this.peer = remote != null ? remote.toString() : "an unknown peer";
        }

        @Override
        public Flux<ByteBuf> receive() {
            return Flux.from(subscriber -> delegate.receive().subscribe(new CoreSubscriber<ByteBuf>() {
                @Override
                public Context currentContext() {
                    return subscriber instanceof CoreSubscriber<?> core ? core.currentContext() : Context.empty();
                }

                @Override
                public void onSubscribe(Subscription subscription) {
                    subscriber.onSubscribe(subscription);
                }

                @Override
                public void onNext(ByteBuf frame) {
                    String previous = CURRENT.get();
                    CURRENT.set(peer);
                    try {
                        subscriber.onNext(frame);
                    } finally {
                        CURRENT.set(previous);
                    }
                }

                @Override
                public void onError(Throwable error) {
                    subscriber.onError(error);
                }

                @Override
                public void onComplete() {
                    subscriber.onComplete();
                }
            }));
        }

        @Override
        public void sendFrame(int streamId, ByteBuf frame) {
            delegate.sendFrame(streamId, frame);
        }

        @Override
        public void sendErrorAndClose(RSocketErrorException error) {
            delegate.sendErrorAndClose(error);
        }

        @Override
        public ByteBufAllocator alloc() {
            return delegate.alloc();
        }

        @Override
        public SocketAddress remoteAddress() {
            return delegate.remoteAddress();
        }

        @Override
        public double availability() {
            return delegate.availability();
        }

        @Override
        public Mono<Void> onClose() {
            return delegate.onClose();
        }

        @Override
        public void dispose() {
            delegate.dispose();
        }

        @Override
        public boolean isDisposed() {
            return delegate.isDisposed();
        }
    }
}

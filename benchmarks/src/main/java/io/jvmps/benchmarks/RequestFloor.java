package io.jvmps.benchmarks;

import io.jvmps.common.codec.RouteMetadata;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketClient;
import io.rsocket.core.RSocketConnector;
import io.rsocket.core.RSocketServer;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.ByteBufPayload;
import reactor.core.publisher.Mono;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The transport's floor for a small data-path request: one request-response of {@code request} bytes answered by
 * {@code response} bytes on loopback, as RSocket carries the data routes (routing metadata, zero-copy payloads,
 * the responder reading the route) against a plain length-prefixed Netty channel doing the same exchange (a request
 * id and a route byte in front of the bytes). Server and client share this JVM, so the process CPU per request is
 * both sides' cost. Reports, per transport: the round trip's p50 with one request at a time, and the requests per
 * second and CPU microseconds per request with {@code callers} threads each keeping one request outstanding.
 *
 * <p>Run: {@code scripts/jmh.sh} builds the module; then
 * {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" io.jvmps.benchmarks.RequestFloor
 * [request-bytes response-bytes callers seconds]} (defaults 2048 8192 4 10).
 */
public final class RequestFloor {
    private static final int ROUTE_SPARSE_PULL = 1;

    /** One way of sending a request and waiting for its answer; thread-safe. */
    interface Transport extends AutoCloseable {
        /** Sends {@code body} (consumed) and waits for the answer; returns its length. */
        int call(ByteBuf body) throws Exception;

        @Override
        void close();
    }

    public static void main(String[] args) throws Exception {
        int request = args.length > 0 ? Integer.parseInt(args[0]) : 2048;
        int response = args.length > 1 ? Integer.parseInt(args[1]) : 8192;
        int callers = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        byte[] answer = new byte[response];
        Arrays.fill(answer, (byte) 7);
        System.out.printf("request %d B, response %d B, %d callers, %d s per measurement%n", request, response,
                callers, seconds);
        for (int round = 0; round < 2; round++) { // the first round warms both up
            for (String kind : new String[]{"rsocket", "netty"}) {
                try (Transport t = kind.equals("rsocket") ? new RSocketTransport(answer) : new NettyTransport(answer)) {
                    measure(kind, t, request, callers, round == 0 ? Math.max(2, seconds / 2) : seconds, round == 1);
                }
            }
        }
    }

    private static void measure(String kind, Transport t, int request, int callers, int seconds, boolean print)
            throws Exception {
        byte[] body = new byte[request];
        int samples = 20_000;
        long[] times = new long[samples];
        for (int i = 0; i < samples; i++) {
            long start = System.nanoTime();
            t.call(Unpooled.wrappedBuffer(body));
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicInteger done = new AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(callers);
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        for (int c = 0; c < callers; c++) {
            Thread caller = new Thread(() -> {
                try {
                    while (System.nanoTime() < deadline) {
                        t.call(Unpooled.wrappedBuffer(body));
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    finished.countDown();
                }
            }, kind + "-caller-" + c);
            caller.setDaemon(true);
            caller.start();
        }
        if (!finished.await(seconds + 30L, TimeUnit.SECONDS)) {
            throw new IllegalStateException("callers did not finish within " + (seconds + 30) + " s");
        }
        double wall = (System.nanoTime() - wall0) / 1e9;
        double cpuMicros = (os.getProcessCpuTime() - cpu0) / 1e3;
        if (print) {
            System.out.printf("RESULT %-8s p50 %6.1f us  p90 %6.1f us  |  %8.0f requests/s  CPU %6.1f us/request%n",
                    kind, times[samples / 2] / 1e3, times[samples * 9 / 10] / 1e3, done.get() / wall,
                    cpuMicros / done.get());
        }
    }

    /** RSocket as the data routes use it: composite routing metadata, zero-copy frames on both sides. */
    static final class RSocketTransport implements Transport {
        private final CloseableChannel server;
        private final RSocketClient client;
        private final ByteBuf route = RouteMetadata.encode("sparse.pull");
        private final ByteBuf answer;

        RSocketTransport(byte[] answerBytes) {
            answer = Unpooled.unreleasableBuffer(Unpooled.directBuffer(answerBytes.length).writeBytes(answerBytes));
            server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
                        @Override
                        public Mono<Payload> requestResponse(Payload p) {
                            String r = RouteMetadata.route(p);
                            p.release();
                            if (r == null) {
                                return Mono.error(new IllegalArgumentException("no route"));
                            }
                            return Mono.just(ByteBufPayload.create(answer.duplicate()));
                        }
                    }))
                    .payloadDecoder(PayloadDecoder.ZERO_COPY)
                    .bind(TcpServerTransport.create("127.0.0.1", 0)).block(Duration.ofSeconds(10));
            InetSocketAddress address = server.address();
            client = RSocketClient.from(RSocketConnector.create()
                    .metadataMimeType(WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString())
                    .payloadDecoder(PayloadDecoder.ZERO_COPY)
                    .connect(TcpClientTransport.create(address)));
        }

        @Override
        public int call(ByteBuf body) {
            Payload answerPayload = client.requestResponse(Mono.fromSupplier(() ->
                    ByteBufPayload.create(body, route.duplicate()))).block(Duration.ofSeconds(10));
            if (answerPayload == null) {
                throw new IllegalStateException("no answer");
            }
            int n = answerPayload.data().readableBytes();
            answerPayload.release();
            return n;
        }

        @Override
        public void close() {
            client.dispose();
            server.dispose();
            server.onClose().block(Duration.ofSeconds(10));
        }
    }

    /** A length-prefixed frame {@code [int length][int request id][byte route][bytes]}, answered in kind. */
    static final class NettyTransport implements Transport {
        private final EventLoopGroup serverLoops;
        private final EventLoopGroup clientLoops;
        private final Channel serverChannel;
        private final Channel channel;
        private final AtomicInteger ids = new AtomicInteger();
        private final Map<Integer, CompletableFuture<Integer>> waiting = new ConcurrentHashMap<>();

        NettyTransport(byte[] answerBytes) throws InterruptedException {
            boolean epoll = Epoll.isAvailable();
            serverLoops = epoll ? new EpollEventLoopGroup(2) : new NioEventLoopGroup(2);
            clientLoops = epoll ? new EpollEventLoopGroup(2) : new NioEventLoopGroup(2);
            ByteBuf answer = Unpooled.unreleasableBuffer(Unpooled.directBuffer(answerBytes.length).writeBytes(answerBytes));
            serverChannel = new ServerBootstrap().group(serverLoops)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(framed((ctx, frame) -> {
                        int id = frame.readInt();
                        if (frame.readByte() != ROUTE_SPARSE_PULL) {
                            ctx.close();
                            return;
                        }
                        ctx.write(ctx.alloc().buffer(8).writeInt(4 + answer.readableBytes()).writeInt(id));
                        ctx.writeAndFlush(answer.duplicate());
                    }))
                    .bind("127.0.0.1", 0).sync().channel();
            int port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
            channel = new Bootstrap().group(clientLoops).channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .handler(framed((ctx, frame) -> {
                        CompletableFuture<Integer> f = waiting.remove(frame.readInt());
                        if (f != null) {
                            f.complete(frame.readableBytes());
                        }
                    }))
                    .connect("127.0.0.1", port).sync().channel();
        }

        /** @return a pipeline that cuts the stream into length-prefixed frames and hands each to {@code onFrame} */
        private static ChannelInitializer<SocketChannel> framed(
                java.util.function.BiConsumer<ChannelHandlerContext, ByteBuf> onFrame) {
            return new ChannelInitializer<>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(16 << 20, 0, 4, 0, 4),
                            new SimpleChannelInboundHandler<ByteBuf>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                    onFrame.accept(ctx, frame);
                                }
                            });
                }
            };
        }

        @Override
        public int call(ByteBuf body) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<Integer> answer = new CompletableFuture<>();
            waiting.put(id, answer);
            ByteBuf head = ByteBufAllocator.DEFAULT.buffer(9).writeInt(5 + body.readableBytes()).writeInt(id)
                    .writeByte(ROUTE_SPARSE_PULL);
            channel.writeAndFlush(Unpooled.wrappedBuffer(head, body)); // one write: callers share the channel
            return answer.get(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            serverChannel.close().syncUninterruptibly();
            clientLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            serverLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}

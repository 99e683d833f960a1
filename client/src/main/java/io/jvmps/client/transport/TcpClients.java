package io.jvmps.client.transport;

import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContext;
import io.rsocket.transport.netty.client.TcpClientTransport;
import reactor.netty.tcp.TcpClient;

/**
 * How this worker opens TCP connections to other nodes' RSocket servers (servers, AllReduce peers):
 * with TLS when the cluster has a TLS bundle ({@code ps.security.tls.bundle}), plain otherwise, and
 * always with Nagle's algorithm off (a step sends a few small frames and then waits for the answer,
 * which Nagle plus delayed ACKs would stall by up to 40 ms). Immutable and thread-safe.
 *
 * @param tls the client TLS context, or null for plain TCP
 */
public record TcpClients(SslContext tls) {
    /** Plain TCP. */
    public static final TcpClients PLAIN = new TcpClients(null);

    /** @return a transport to {@code host:port} */
    public TcpClientTransport transport(String host, int port) {
        return TcpClientTransport.create(client(host, port));
    }

    /** @return the TCP client {@link #transport} connects with: Nagle off, TLS when configured */
    TcpClient client(String host, int port) {
        TcpClient client = TcpClient.create().host(host).port(port).option(ChannelOption.TCP_NODELAY, true);
        return tls == null ? client : client.secure(spec -> spec.sslContext(tls));
    }
}

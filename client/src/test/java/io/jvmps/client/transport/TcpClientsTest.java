package io.jvmps.client.transport;

import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every connection a worker opens (to servers and to its AllReduce neighbour) has Nagle's algorithm off: a step
 * sends a few small frames and waits for the answer, which Nagle plus delayed ACKs would stall by up to 40 ms each.
 */
class TcpClientsTest {

    @Test
    void plainAndTlsConnectionsHaveNagleOff() throws Exception {
        assertThat((Object) TcpClients.PLAIN.client("localhost", 1).configuration().options()
                .get(ChannelOption.TCP_NODELAY)).isEqualTo(Boolean.TRUE);
        TcpClients tls = new TcpClients(SslContextBuilder.forClient().build());
        assertThat((Object) tls.client("localhost", 1).configuration().options().get(ChannelOption.TCP_NODELAY))
                .isEqualTo(Boolean.TRUE);
        assertThat(tls.client("localhost", 1).configuration().isSecure()).isTrue();
        assertThat(TcpClients.PLAIN.client("localhost", 1).configuration().isSecure()).isFalse();
    }
}

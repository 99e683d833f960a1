package io.jvmps.cluster;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The transport baseline: a payload written to a plain {@code java.net.Socket} on loopback, read fully by
 * an echo thread, written back and read fully again: what moving the bytes both ways costs with nothing
 * else in the way. Both ends set TCP_NODELAY, as the parameter server's connections do: with Nagle's
 * algorithm the last partial segment of each write waited for a delayed ACK (a 10 MB echo took 53 ms,
 * more than a fifth of a 40 MB one).
 */
final class SocketEcho {
    private SocketEcho() {
    }

    /** @return the median round trip of {@code bytes} over {@code rounds} rounds after {@code warmup}, in ms */
    static double medianRoundTripMillis(int bytes, int warmup, int rounds) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread echo = new Thread(() -> {
                try (Socket peer = listener.accept()) {
                    peer.setTcpNoDelay(true);
                    byte[] buffer = new byte[bytes];
                    DataInputStream in = new DataInputStream(peer.getInputStream());
                    OutputStream out = peer.getOutputStream();
                    for (int round = 0; round < warmup + rounds; round++) {
                        in.readFully(buffer);
                        out.write(buffer);
                        out.flush();
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "raw-echo");
            echo.start();
            double[] millis = new double[rounds];
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
                socket.setTcpNoDelay(true);
                byte[] payload = new byte[bytes];
                byte[] back = new byte[bytes];
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                for (int round = 0; round < warmup + rounds; round++) {
                    long start = System.nanoTime();
                    out.write(payload);
                    out.flush();
                    new DataInputStream(in).readFully(back);
                    if (round >= warmup) {
                        millis[round - warmup] = (System.nanoTime() - start) / 1e6;
                    }
                }
            }
            echo.join(10_000);
            return BenchmarkReport.median(millis);
        }
    }
}

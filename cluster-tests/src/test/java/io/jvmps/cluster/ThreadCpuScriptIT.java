package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/thread-cpu.sh} against this JVM: a thread kept busy shows with about a core of CPU, and bad
 * arguments are refused with a message. {@code LeNetMnistIT} reads a training cluster's nodes with it.
 */
class ThreadCpuScriptIT {

    @Test
    void aBusyThreadShowsWithItsCpu() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = new Thread(() -> {
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.println(x);
            }
        }, "busy-spinner");
        busy.start();
        try {
            long pid = ProcessHandle.current().pid();
            ThreadCpuScript.Result result = ThreadCpuScript.run("2", Long.toString(pid));
            assertThat(result.exit()).as(result.output()).isZero();
            assertThat(result.rows()).as(result.output())
                    .anySatisfy(row -> {
                        assertThat(row.node()).isEqualTo("java/" + pid);
                        assertThat(row.threads()).isEqualTo("busy-spinner");
                        assertThat(row.count()).isEqualTo(1);
                        // one core is 1000 ms per second; the machine's other work may take part of it, and the
                        // script's window is read around its sleep, so a busy thread can show a little above one core
                        // (1,066 was seen)
                        assertThat(row.cpu()).isBetween(250.0, 1200.0);
                    });
            assertThat(result.output()).containsPattern("all threads of these JVMs: [0-9.]+ cores busy");
        } finally {
            stop.set(true);
            busy.join(10_000);
        }
    }

    @Test
    void badArgumentsAreRefusedWithAMessage() throws Exception {
        ThreadCpuScript.Result zero = ThreadCpuScript.run("0", Long.toString(ProcessHandle.current().pid()));
        assertThat(zero.exit()).isEqualTo(1);
        assertThat(zero.output()).contains("SECONDS must be a positive number, got '0'");

        ThreadCpuScript.Result word = ThreadCpuScript.run("soon");
        assertThat(word.exit()).isEqualTo(1);
        assertThat(word.output()).contains("SECONDS must be a positive number, got 'soon'");

        ThreadCpuScript.Result gone = ThreadCpuScript.run("1", "999999999");
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.output()).contains("no readable process 999999999");
    }
}

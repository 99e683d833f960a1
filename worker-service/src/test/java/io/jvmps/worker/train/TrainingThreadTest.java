package io.jvmps.worker.train;

import io.jvmps.worker.config.LifecycleProperties;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** Shutdown waits for the interrupted job to clean up (write back its cache) before the context goes on closing. */
class TrainingThreadTest {

    @Test
    void destroyInterruptsTheJobAndWaitsForItsCleanUp() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean cleanedUp = new AtomicBoolean();
        WorkerJob job = new WorkerJob(null, null, null, null, null, null, null, null, null, null, null, null) {
            @Override
            public int run(int httpPort) {
                running.countDown();
                try {
                    new CountDownLatch(1).await();        // trains until interrupted
                } catch (InterruptedException e) {
                    long until = System.nanoTime() + 300_000_000L;
                    while (System.nanoTime() < until) {   // a write-back that takes a while
                        Thread.onSpinWait();
                    }
                    cleanedUp.set(true);
                }
                return 1;
            }
        };
        TrainingThread thread = new TrainingThread(job, new LifecycleProperties(false, Duration.ofSeconds(10)));
        thread.start(0, null);
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        thread.destroy();
        assertThat(cleanedUp).as("destroy returned only after the job cleaned up").isTrue();
    }
}

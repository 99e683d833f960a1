package io.jvmps.worker.train;

import io.jvmps.worker.config.LifecycleProperties;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shutdown waits for the interrupted job to clean up (write back its cache) before the context goes on closing, and
 * a job stopped that way does not then exit the application itself: the close already under way would wait for it.
 */
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
        thread.start(0, code -> { });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        thread.destroy();
        assertThat(cleanedUp).as("destroy returned only after the job cleaned up").isTrue();
    }

    @Test
    void aStoppedJobLeavesTheExitToTheShutdownUnderWay() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicInteger exits = new AtomicInteger();
        CountDownLatch ended = new CountDownLatch(1);
        WorkerJob job = new WorkerJob(null, null, null, null, null, null, null, null, null, null, null, null) {
            @Override
            public int run(int httpPort) {
                running.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    ended.countDown();
                }
                return 1;
            }
        };
        TrainingThread thread = new TrainingThread(job, new LifecycleProperties(true, Duration.ofSeconds(10)));
        thread.start(0, code -> exits.incrementAndGet());
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        thread.destroy();
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(exits).as("the job's thread did not exit the application a second time").hasValue(0);
    }

    @Test
    void aJobThatFinishesExitsWithItsCodeAndTheCloseItStartsDoesNotWaitForIt() throws Exception {
        AtomicInteger exitCode = new AtomicInteger(-1);
        CountDownLatch exited = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        WorkerJob job = new WorkerJob(null, null, null, null, null, null, null, null, null, null, null, null) {
            @Override
            public int run(int httpPort) {
                return 0;
            }
        };
        TrainingThread thread = new TrainingThread(job, new LifecycleProperties(true, Duration.ofSeconds(10)));
        thread.start(0, code -> {
            exitCode.set(code);
            // the exit closes the context, whose shutdown hook may run on another thread: it must not join this one
            Thread hook = new Thread(() -> {
                thread.destroy();
                closeReturned.countDown();
            });
            hook.start();
            try {
                assertThat(closeReturned.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exited.countDown();
        });
        assertThat(exited.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(exitCode).hasValue(0);
        assertThat(closeReturned.getCount()).isZero();
    }
}

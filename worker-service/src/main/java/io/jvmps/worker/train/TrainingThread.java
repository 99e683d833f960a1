package io.jvmps.worker.train;

import io.jvmps.worker.config.LifecycleProperties;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Runs the {@link WorkerJob} on a thread of its own once the application is up, so status and
 * health answer during training; then exits the JVM with the job's code (0 success, 1 failure)
 * unless {@code ps.worker.lifecycle.exit-on-finish=false}. The thread is not a daemon: the JVM cannot end
 * before the job decided the exit code. Closing the context (SIGTERM) interrupts it and waits up to
 * {@code ps.worker.lifecycle.shutdown-timeout} for it to end, so the job can clean up while the connections are
 * still open: a CTR job writes its embedding cache's changed rows back to the servers. Whichever comes first owns
 * the shutdown: a job that ends after a stop was asked for returns without exiting (the context is already
 * closing; exiting from the job's thread then would wait for the close that waits for the thread), and a stop
 * asked for while the job's thread is already exiting does not wait for it. Thread-safe.
 */
public class TrainingThread implements DisposableBean {
    private final WorkerJob job;
    private final LifecycleProperties lifecycle;
    private final AtomicBoolean shutdownClaimed = new AtomicBoolean();
    private volatile Thread thread;

    public TrainingThread(WorkerJob job, LifecycleProperties lifecycle) {
        this.job = job;
        this.lifecycle = lifecycle;
    }

    /**
     * @param httpPort this worker's HTTP port
     * @param context  the application, closed before exiting
     */
    public void start(int httpPort, ConfigurableApplicationContext context) {
        start(httpPort, code -> {
            SpringApplication.exit(context, () -> code);
            System.exit(code);
        });
    }

    /**
     * @param httpPort this worker's HTTP port
     * @param exit     closes the application and ends the JVM with the job's code (when exit-on-finish is set)
     */
    void start(int httpPort, IntConsumer exit) {
        thread = new Thread(() -> {
            int code = job.run(httpPort);
            if (lifecycle.exitOnFinish() && shutdownClaimed.compareAndSet(false, true)) {
                exit.accept(code);
            }
        }, "training");
        thread.start();
    }

    @Override
    public void destroy() {
        Thread t = thread;
        if (t == null || t == Thread.currentThread() || !shutdownClaimed.compareAndSet(false, true)) {
            return; // not started, closing from the job's own exit, or that exit is already under way
        }
        t.interrupt();
        try {
            t.join(lifecycle.shutdownTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LoggerFactory.getLogger(TrainingThread.class).warn("Training did not stop within "
                    + "ps.worker.lifecycle.shutdown-timeout={}; shutting down without waiting for it",
                    lifecycle.shutdownTimeout());
        }
    }
}

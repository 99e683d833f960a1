package io.jvmps.worker.train.progress;

import io.jvmps.client.PsJob;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes the worker's status page ({@link TrainingState}) and metrics ({@link TrainingMeters}) follow the steps the
 * library's trainer reports through {@link PsJob#onStep}, logs {@code epoch: E step: S, loss is L} (the stock jobs'
 * line) at the first step of an epoch and every {@code ps.worker.training.log-interval} steps, and paces the steps by
 * {@code ps.worker.training.step-delay} (benchmarks and tests of slow workers). Its listener runs on the training
 * thread.
 */
public final class TrainerProgress {
    private static final Logger log = LoggerFactory.getLogger(StepReporter.class);

    private TrainerProgress() {
    }

    /**
     * Makes the worker's embedding-cache metrics ({@code ps.worker.embedding.cache.*}, tag {@code table}) follow the
     * trainer's cached tables while it trains and after. Call once, after {@code cacheTable}.
     */
    public static void followCaches(io.jvmps.client.train.SameDiffTrainer trainer, TrainingMeters meters,
                                    java.util.Collection<String> tables) {
        for (String table : tables) {
            meters.embeddingCache(table, () -> trainer.cacheStats().getOrDefault(table,
                    io.jvmps.common.embedding.CacheStats.NONE));
        }
    }

    /**
     * @param logInterval steps between log lines, &gt;= 1
     * @param stepDelay   a pause after every step (zero: none)
     */
    public static void follow(PsJob job, TrainingState state, TrainingMeters meters, int logInterval,
                              Duration stepDelay) {
        long[] lastStep = {System.nanoTime()};
        job.onStep((report, examples) -> {
            long now = System.nanoTime();
            meters.step(now - lastStep[0], report.loss(), examples);
            lastStep[0] = now;
            state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.TRAINING, s.rank(), s.nodeId(),
                    report.epoch(), report.step(), report.globalStep(), s.totalSteps(), report.loss(),
                    report.imagesPerSecond(), report.bytesPushed(), report.bytesPulled(), s.accuracy(), s.error()));
            if (report.step() == 1 || report.step() % Math.max(1, logInterval) == 0) {
                log.info(String.format(Locale.ROOT, "epoch: %d step: %d, loss is %.6f", report.epoch(), report.step(),
                        report.loss()));
            }
            if (!stepDelay.isZero()) {
                LockSupport.parkNanos(stepDelay.toNanos());
            }
        });
    }
}

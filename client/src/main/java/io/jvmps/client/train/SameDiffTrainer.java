package io.jvmps.client.train;

import io.jvmps.client.PsJob;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;

/**
 * Trains any SameDiff classification graph through the job's servers, without a parameter-server loop of
 * one's own: every trainable float32 variable of the graph is a dense parameter on the servers (declared
 * in the graph's order, seeded by rank 0 with the graph's current values), and each step pulls the
 * parameters at the step's version, computes the batch's gradients with the graph, and pushes them; the
 * servers' optimizer and consistency mode (SYNC, ASYNC or SSP) do the rest. In GEO the graph trains
 * locally with plain SGD at the servers' {@code ps.consistency.geo-learning-rate}, and every
 * {@code geo-interval} steps (and after the last) pushes its change since the last pull divided by the
 * workers, then pulls the servers' sum; the last pull waits for every worker's last round, so all end on
 * one model. In SYNC and GEO every worker must run the same number of steps (give each worker a shard of
 * the same number of batches). A graph with embedding tables ({@link SameDiffGraph#withTables}) keeps them on
 * the servers: each step pulls the batch's distinct rows of every table, and pushes their summed gradients before
 * the dense gradients (SYNC, ASYNC and SSP); in GEO a round pulls each row once, trains it locally with the dense
 * part, and pushes its change as a delta before the dense round's. A lost server is recovered as the stock worker
 * does it ({@link PsJob#resume}): every worker rolls back to the newest checkpoint and goes on from its step,
 * with the batch that step had. Each step's progress goes to the scheduler
 * (its job status and dashboard show the worker's epoch, step, loss and throughput). Not thread-safe: one
 * training thread.
 */
public final class SameDiffTrainer {
    private static final Logger log = LoggerFactory.getLogger(SameDiffTrainer.class);
    /**
     * The dense parameter a graph with tables gets when its own dense part is smaller than the server count: one
     * element per server, its gradient always zero, so every server holds a slice (the step barrier and the
     * checkpoint trigger). Not a variable of the graph; never exported.
     */
    static final String STEP_BARRIER = "jvmps.step-barrier";

    private final PsJob job;
    private final SameDiffGraph graph;
    private final java.util.Set<String> onWorkers = new java.util.LinkedHashSet<>();
    private final ShardScoring scoring = new ShardScoring(this::predict);
    private WorkerLocalParams local;
    private PsJob.DenseStart dense;
    private io.jvmps.client.data.SparseClient sparse;
    private long step;
    private long maxSteps;
    private final java.util.Map<String, TableCaches.Setting> cached = new java.util.LinkedHashMap<>();
    private java.util.Map<String, io.jvmps.common.embedding.CacheStats> cacheStats = java.util.Map.of();
    /** The running fit's table step, for {@link #cacheStats} from other threads; null between fits. */
    private volatile TableStep running;

    /**
     * @param job   the job this worker joined
     * @param graph the graph to train (see {@link SameDiffGraph#of}); the trainer sets its parameters
     */
    public SameDiffTrainer(PsJob job, SameDiffGraph graph) {
        this.job = job;
        this.graph = graph;
    }

    /**
     * Keeps parameters on the workers instead of the servers (MindSpore's parameters without
     * {@code set_param_ps}): every worker holds its own copy, starting from the graph's values (build the
     * graph with the same seed on every worker), and after each step their gradients are averaged over the
     * workers by a ring AllReduce ({@link PsJob#allReduce}) and applied with the servers' update rule, so the
     * copies stay equal. Call before the first {@code fit}. The servers' checkpoints do not hold these
     * values: after a recovery they keep their latest ones.
     *
     * @param names parameters of the graph
     * @return this trainer
     * @throws PsException INVALID_ARGUMENT for a name that is no parameter of the graph (listing them), for a
     *                     call after training started, or when the servers run GEO
     */
    public SameDiffTrainer placeOnWorkers(String... names) {
        if (dense != null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "place parameters on the workers before the first fit");
        }
        if (job.semantics().mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "worker-local parameters need servers in SYNC, ASYNC "
                    + "or SSP mode; they run GEO");
        }
        List<String> known = graph.params().stream().map(ParamSpec::name).toList();
        for (String name : names) {
            if (!known.contains(name)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "no parameter '" + name + "' to place on the "
                        + "workers; the graph's parameters: " + known);
            }
            onWorkers.add(name);
        }
        return this;
    }

    /**
     * Keeps up to {@code rows} rows of one table in a worker embedding cache ({@link TableCaches}, MindSpore's
     * {@code vocab_cache_size}): they train on the worker by plain SGD and go back to the servers as deltas when
     * evicted, every {@code refreshSteps} and before this worker's last step. Call before the first fit.
     *
     * @param table        one of the graph's tables
     * @param rows         most rows cached, at least a batch's distinct ids of the table
     * @param eviction     which cached row gives way for a new one
     * @param learningRate the local SGD rate, &gt; 0
     * @param refreshSteps steps between write-back-and-refill rounds, so hot rows see other workers' changes; 0: never
     * @return this trainer
     * @throws PsException INVALID_ARGUMENT for a name that is no table (listing them), a call after training
     *                     started, bad settings, or servers in GEO (whose rounds keep rows locally already)
     */
    public SameDiffTrainer cacheTable(String table, int rows, io.jvmps.common.embedding.EvictionPolicy eviction,
                                      double learningRate, int refreshSteps) {
        return cacheTable(table, rows, eviction, learningRate, refreshSteps, 1);
    }

    /**
     * {@link #cacheTable(String, int, io.jvmps.common.embedding.EvictionPolicy, double, int)} gathering up to
     * {@code writeBackRows} evicted changed rows before it pushes them back in one call (fewer, larger pushes).
     */
    public SameDiffTrainer cacheTable(String table, int rows, io.jvmps.common.embedding.EvictionPolicy eviction,
                                      double learningRate, int refreshSteps, int writeBackRows) {
        if (dense != null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "cache tables before the first fit");
        }
        cached.put(table, TableCaches.Setting.checked(graph.tables(), job.semantics().mode(), table, rows, eviction,
                learningRate, refreshSteps, writeBackRows));
        return this;
    }

    /**
     * @return each cached table's counters (hits, misses, evictions, write-backs) of the running fit, or else of the
     * last one, by table; safe to call from another thread (a metrics scrape) while a fit runs
     */
    public java.util.Map<String, io.jvmps.common.embedding.CacheStats> cacheStats() {
        TableStep live = running;
        return live != null ? live.stats() : cacheStats;
    }

    /** @return the graph being trained */
    public SameDiffGraph graph() {
        return graph;
    }

    /**
     * Ends every fit after at most {@code steps} steps of this worker (0, the default: no limit), as the stock
     * worker's {@code ps.worker.training.max-steps}: for smoke runs and tests. In SYNC every worker sets the same.
     *
     * @return this trainer
     */
    public SameDiffTrainer maxSteps(long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("maxSteps must be 0 (no limit) or positive, got " + steps);
        }
        this.maxSteps = steps;
        return this;
    }

    /**
     * Pulls the servers' current dense values into the graph (what they hold now, whatever the step): for a
     * worker that exports once every worker has reported in ASYNC or SSP, when others pushed after its last step.
     *
     * @throws PsException INVALID_ARGUMENT before the first fit
     */
    public void pullLatest() {
        if (dense == null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the parameters are on the servers once training "
                    + "started: fit before pulling them");
        }
        FitLoop.pullInto(dense, graph, 0);
    }

    /** @return the next step this worker pushes (its clock) */
    public long step() {
        return step;
    }

    /**
     * Trains {@code epochs} passes over an iterator, resetting it before each. The iterator is read once more
     * first, to count its batches (a step's batch must be found again after a recovery); a {@code List} of
     * batches, or {@link #fit(Examples, int, int, long)}, needs no such pass.
     */
    public Result fit(DataSetIterator batches, int epochs) {
        return fit(() -> {
            batches.reset();
            return batches;
        }, epochs);
    }

    /**
     * Trains {@code epochs} passes over this worker's batches, then pulls the servers' values into the graph.
     *
     * @param batches features {@code [n, d]} and one-hot labels {@code [n, k]} per batch
     * @return steps run, last loss, examples and seconds
     * @throws PsException the servers' or the wire's error (TIMEOUT naming the server and route when a
     *                     step waited too long, e.g. for a SYNC worker that ran fewer steps), or a lost server
     *                     that could not be recovered (no checkpoint, or past the recovery timeout)
     */
    public Result fit(Iterable<DataSet> batches, int epochs) {
        return fit(new BatchSource.OfIterable(batches), epochs);
    }

    /**
     * Trains {@code epochs} passes over this worker's shard of {@code train}: each epoch shuffles the whole
     * set with {@code seed} and epoch number (the same on every worker) and gives every worker the same
     * number of batches of its own examples ({@link EpochBatches}), as SYNC needs. The data is read batch
     * by batch, so a {@link io.jvmps.client.dataset.CsvFile} or {@link io.jvmps.client.dataset.NpyFile}
     * larger than the heap trains as well as one in memory.
     *
     * @param train     the whole training set, the same on every worker
     * @param batchSize examples per batch
     * @param seed      the job's data seed
     */
    public Result fit(Examples train, int batchSize, int epochs, long seed) {
        return fit(new BatchSource.Sharded(train, job.workers(), job.rank(), batchSize, seed), epochs);
    }

    private Result fit(BatchSource batches, int epochs) {
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
        }
        long started = System.nanoTime();
        int perEpoch = batches.perEpoch();
        if (perEpoch == 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "no batches to train on");
        }
        long steps = (long) epochs * perEpoch;
        // the first fit's schedule is the job's from step 0: a worker that joined a running job (or found the
        // servers restored) goes on at its start step; a later fit trains its epochs from where the last one ended
        long origin = dense == null ? 0 : step;
        start(maxSteps > 0 ? Math.min(steps, maxSteps) : steps);
        return run(new StepSource.Fixed(batches, epochs, origin, maxSteps), started);
    }

    /**
     * Trains on data partitions leased from the scheduler one at a time (dynamic sharding, as the stock worker's
     * {@code ps.worker.dataset.sharding=DYNAMIC}): each epoch of {@code train} is cut into {@code partitions}
     * parts of one seeded permutation, and a faster worker simply trains more of them; the fit ends when the
     * scheduler has none left. After a recovery the worker trains again the partitions the rollback undid. Every
     * worker of the job passes the same data, epochs, seed and partitions. SYNC, ASYNC and SSP; not with GEO
     * (its rounds need a fixed schedule) or embedding caches.
     *
     * @param train      the whole training set, the same on every worker
     * @param batchSize  examples per batch
     * @param epochs     passes over the data, counted over all workers
     * @param seed       the job's data seed
     * @param partitions partitions per epoch, 1 .. the number of examples
     * @throws PsException INVALID_ARGUMENT for GEO servers, cached tables or a partition count that does not fit
     */
    public Result fitLeased(Examples train, int batchSize, int epochs, long seed, int partitions) {
        long started = System.nanoTime();
        StepSource.Leased source = StepSource.Leased.of(job, train, new io.jvmps.client.schedule.LoopSettings(epochs,
                batchSize, seed, 1, (int) Math.min(Integer.MAX_VALUE, maxSteps), java.time.Duration.ZERO), partitions,
                cached.keySet());
        start(source.total());
        log.info("worker {}: dynamic data sharding, {} partitions per epoch leased by the scheduler", job.rank(),
                partitions);
        return run(source, started);
    }

    private Result run(StepSource source, long started) {
        long first = step;
        FitLoop loop = new FitLoop(job, graph, local, dense, sparse, step, source.end());
        TableStep tableStep = TableStep.of(graph.tables(), loop.geo(), job.semantics().geoLearningRate(),
                job.workers(), cached, sparse);
        running = tableStep;
        try (tableStep) {
            try {
                loop.run(source, tableStep);
            } catch (RuntimeException e) {
                if (tableStep != null) {
                    tableStep.stopped(e); // a stop or an error that is no server loss: keep what the caches learnt
                    cacheStats = tableStep.stats();
                }
                throw e;
            } finally { // a recovery replaced them
                dense = loop.dense();
                sparse = loop.sparse();
                step = loop.step();
            }
            cacheStats = tableStep == null ? java.util.Map.of() : tableStep.stats();
        } finally {
            running = null;
        }
        loop.finish();
        return loop.result(first, started);
    }

    /**
     * @param batches test features and one-hot labels
     * @return how many of their examples the graph's current values classify correctly (arg-max of the
     * prediction against the arg-max of the label)
     */
    public Evaluation evaluate(Iterable<DataSet> batches) {
        return scoring.evaluate(batches);
    }

    /**
     * The graph's predictions for examples, their tables' rows pulled from the servers.
     *
     * @param rows features, and ids when the graph has tables
     * @return the prediction variable's value {@code [n, k]}
     */
    public INDArray predict(LabeledData rows) {
        if (graph.tables().isEmpty()) {
            return graph.predict(rows.features());
        }
        requireStarted("predict");
        TableRows tables = TableRows.of(graph.tables(), rows.ids());
        tables.pull(sparse);
        return graph.predict(rows.features(), tables.lookupRows(), rows.ids());
    }

    /**
     * Scores a regression graph (real targets, e.g. ratings) on this worker's shard of a test set.
     *
     * @param test the whole test set, labels {@code [n, 1]} (or {@code [n, k]}: every target counts); this worker
     *             evaluates its shard ({@link EpochBatches#shardRange}), so the workers' sums add up to the set
     * @return the summed squared and absolute errors over the shard's targets
     */
    public Regression evaluateRegressionShard(Examples test) {
        return scoring.regression(test, shard(test));
    }

    /**
     * Scores a click model (a binary classifier whose prediction is the click probability, e.g. a sigmoid) on this
     * worker's shard of a test set; {@link PsJob#reportClicks} sends it to the job status, which merges the
     * workers' histograms to the set's AUC, log loss and accuracy.
     *
     * @param test the whole test set, labels {@code [n, 1]} of 0 or 1 ({@link io.jvmps.client.dataset.LabelKind#BINARY})
     * @return the shard's click histogram
     * @throws PsException INVALID_ARGUMENT when the prediction is not one probability in [0, 1] per example or a
     *                     label is not 0 or 1
     */
    public ClickHistogram evaluateClicksShard(Examples test) {
        return scoring.clicks(test, shard(test));
    }

    /**
     * @param test  the whole test set; this worker evaluates its shard ({@link EpochBatches#shardRange}), so
     *              the workers' results sum to the whole set
     * @return how many of the shard's examples the graph's current values classify correctly
     */
    public Evaluation evaluateShard(Examples test) {
        IndexRange range = shard(test);
        return new Evaluation(scoring.correct(test, range), range.to() - range.from());
    }

    private IndexRange shard(Examples test) {
        return EpochBatches.shardRange(test.size(), job.workers(), job.rank());
    }

    /**
     * Writes the graph with its current (trained) values as a SameDiff model file, which
     * {@code SameDiff.load(file, false)} reads in any program. The file appears whole or not at all. A bounded
     * table is in it as its variable again, every row pulled from the servers. A hashed table's rows are written
     * beside it as {@link TableFiles} ({@code <table>.ids.npy} and {@code <table>.rows.npy}, every id the servers
     * hold); the graph keeps the table's variable as built, so a program predicts by setting it to the rows and
     * feeding each id's position among the ids (a binary search).
     */
    public void save(Path file) {
        if (!graph.tables().isEmpty()) {
            requireStarted("save");
            TableFiles.putTables(graph, file.toAbsolutePath().getParent(), job.control(), sparse);
        }
        graph.save(file);
    }

    private void requireStarted(String what) {
        if (dense == null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the graph's tables are on the servers once training "
                    + "started: fit before " + what);
        }
    }

    /** Declares the graph's server-side parameters once, telling the servers the first fit's length in steps. */
    private void start(long steps) {
        if (dense != null) {
            return;
        }
        TrainerStart.Started started = TrainerStart.declare(job, graph, onWorkers, steps);
        dense = started.dense();
        local = started.local();
        sparse = started.sparse();
        step = dense.startStep();
    }

    /**
     * What a {@link #fit} did.
     *
     * @param steps    steps this worker ran
     * @param lastLoss the last batch's mean loss
     * @param examples examples trained on
     * @param seconds  wall time, pulls and pushes included
     * @param phases   that time by phase
     */
    public record Result(long steps, double lastLoss, long examples, double seconds, Phases phases) {
    }

    /**
     * A fit's wall time by phase, summed over its steps; the parameter server's share of a step is
     * {@code (pull + push) / seconds}.
     *
     * @param pullSeconds    reading dense parameters (in SYNC and SSP including the wait for the other workers) and
     *                       table rows
     * @param computeSeconds the graph's forward and backward passes
     * @param pushSeconds    sending row and dense gradients (until the servers acknowledged them)
     */
    public record Phases(double pullSeconds, double computeSeconds, double pushSeconds) {
    }

    /**
     * A regression test's error sums (add them over the workers, then take the root and the mean).
     *
     * @param squaredError  sum of squared errors
     * @param absoluteError sum of absolute errors
     * @param targets       targets scored
     */
    public record Regression(double squaredError, double absoluteError, long targets) {
        /** @return root mean squared error, NaN without targets */
        public double rmse() {
            return targets == 0 ? Double.NaN : Math.sqrt(squaredError / targets);
        }

        /** @return mean absolute error, NaN without targets */
        public double mae() {
            return targets == 0 ? Double.NaN : absoluteError / targets;
        }
    }

    /**
     * A test-set count.
     *
     * @param correct  examples classified correctly
     * @param examples examples evaluated
     */
    public record Evaluation(long correct, long examples) {
        /** @return correct / examples, NaN without examples */
        public double accuracy() {
            return examples == 0 ? Double.NaN : (double) correct / examples;
        }
    }
}

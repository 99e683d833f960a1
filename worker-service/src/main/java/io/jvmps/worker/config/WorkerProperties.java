package io.jvmps.worker.config;

import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.PlacementMode;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** How this worker trains ({@code ps.worker.*}). */
@Validated
@ConfigurationProperties(prefix = "ps.worker")
public class WorkerProperties {
    /** Folder holding the MNIST IDX files (plain or .gz). */
    @NotBlank
    private String dataPath = "data/mnist";
    /** Model to train. */
    /** A built-in model (LENET5, SOFTMAX), a ModelProvider's name, or the path of a SameDiff model file. */
    @NotBlank
    private String model = ModelType.LENET5.name();
    /** The variables of a model file's graph. */
    @jakarta.validation.Valid
    @org.springframework.boot.context.properties.NestedConfigurationProperty
    private final GraphProperties graph = new GraphProperties();
    /** CSV data ({@code data=CSV}). */
    @jakarta.validation.Valid
    @org.springframework.boot.context.properties.NestedConfigurationProperty
    private final CsvProperties csv = new CsvProperties();
    /** Training data file for the file formats (CSV). */
    private String trainFile = "";
    /** Test data file for the file formats (CSV). */
    private String testFile = "";
    /** NPY: the training labels file (class numbers, one per row of train-file). */
    private String trainLabelsFile = "";
    /** NPY: the test labels file. */
    private String testLabelsFile = "";
    /** LIBSVM: features per example; 0: the largest feature index in the training file. */
    @Min(0)
    private int numFeatures = 0;
    /** Classes in the data; 0: the largest label in the training file + 1. */
    @Min(0)
    private int numClasses = 0;
    /** Folder of plugin jars (e.g. a ModelProvider); a missing folder means none. */
    @NotBlank
    private String pluginsDir = "plugins";
    /** If set, rank 0 writes the trained model there at the end of the job (model.sd + model.json). */
    private String exportDir = "";
    /** Passes over the training set. */
    @Min(1)
    private int epochs = 4;
    /** Samples per step on this worker. */
    @Min(1)
    private int batchSize = 64;
    /** Seed of parameter initialisation and data shuffling; the same on every worker. */
    private long seed = 42;
    /** Log (and report) loss every this many steps; step 1 is always logged. */
    @Min(1)
    private int logInterval = 10;
    /** Use only the first N training samples (0 = all); for tests and quick runs. */
    @Min(0)
    private int trainLimit = 0;
    /** Use only the first N test samples (0 = all). */
    @Min(0)
    private int testLimit = 0;
    /** Stop after this many steps in total (0 = run every epoch); for tests. */
    @Min(0)
    private int maxSteps = 0;
    /** Batch size of the final evaluation. */
    @Min(1)
    private int evalBatchSize = 500;
    /** How long to wait for every server to register and accept connections before failing. */
    @NotNull
    private Duration serverWaitTimeout = Duration.ofMinutes(5);
    /** Pause between two checks while waiting for servers. */
    @NotNull
    private Duration serverWaitInterval = Duration.ofSeconds(3);
    /** Deadline of one push or pull, including the sync barrier wait on the server. */
    @NotNull
    private Duration requestTimeout = Duration.ofMinutes(3);
    /**
     * A connection to a server (or AllReduce peer) that delivers nothing, not even an answer to the
     * keep-alive frames sent every fifth of this, for this long counts as lost (then recovery starts). This
     * is what notices a host that vanished without closing its connections (power or network loss).
     */
    @NotNull
    @org.hibernate.validator.constraints.time.DurationMin(millis = 500,
            message = "ps.worker.connection-loss-timeout must be at least 500ms (e.g. 15s)")
    private Duration connectionLossTimeout = Duration.ofSeconds(15);
    /**
     * After losing a server (connection closed, or the servers rolled back to a checkpoint): how long to
     * keep trying to reconnect and resume from the servers' newest checkpoint before failing. Zero turns
     * recovery off (the worker fails at once, as without checkpoints).
     */
    @NotNull
    private Duration recoveryTimeout = Duration.ofMinutes(5);
    /** If set, the worker writes its final parameters there as {@code <name>.npy}. */
    private String outputDir = "";
    /** Data set: MNIST IDX files, or a seeded synthetic set for tests. */
    @NotNull
    private DataSource data = DataSource.MNIST;
    /**
     * Extra pause per training step. For benchmarks and tests that need a slow worker (e.g. to show
     * what ASYNC and SSP buy over SYNC); leave at zero otherwise.
     */
    @NotNull
    private Duration stepDelay = Duration.ZERO;
    /**
     * Parameter placement: ALL_PS (every parameter on the servers) or HYBRID (the parameters named in
     * {@code local-params} stay on the workers and are averaged by an AllReduce among them).
     */
    @NotNull
    private PlacementMode placement = PlacementMode.ALL_PS;
    /** Names of the worker-local parameters with {@code placement=HYBRID}, e.g. {@code conv1_W,conv1_b}. */
    @NotNull
    private List<String> localParams = new ArrayList<>();
    /** What to train: CLASSIFICATION (MNIST or synthetic classes, dense model) or CTR (wide-and-deep on sparse tables). */
    @NotNull
    private JobKind job = JobKind.CLASSIFICATION;
    /** Settings of the CTR job. */
    @jakarta.validation.Valid
    @org.springframework.boot.context.properties.NestedConfigurationProperty
    private final CtrProperties ctr = new CtrProperties();
    /**
     * On shutdown (SIGTERM, context close), how long to wait for the training thread to stop and clean up
     * (a CTR job writes its embedding cache's changed rows back to the servers) before the JVM goes on.
     */
    @NotNull
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    /** Exit the JVM when training ends (false keeps the app up, for tests and inspection). */
    private boolean exitOnFinish = true;
    /**
     * How the training data is split among workers: STATIC (each rank its fixed shard, the default) or
     * DYNAMIC (the scheduler hands out data partitions one at a time, so a worker that joins a running
     * job beyond ps.cluster.worker-num shares the rest; ASYNC and SSP modes).
     */
    @NotNull
    private DataSharding sharding = DataSharding.STATIC;
    /** DYNAMIC sharding: partitions each epoch is cut into (every worker of the job must use the same). */
    @Min(1)
    private int dataPartitions = 16;

    /** How the training data is split among workers. */
    public enum DataSharding {
        /** Each rank trains its own fixed shard of every epoch (rank r of W: every W-th example). */
        STATIC,
        /** The scheduler leases (epoch, partition) pairs to whichever worker asks next. */
        DYNAMIC
    }

    public DataSharding getSharding() {
        return sharding;
    }

    public void setSharding(DataSharding sharding) {
        this.sharding = sharding;
    }

    public int getDataPartitions() {
        return dataPartitions;
    }

    public void setDataPartitions(int dataPartitions) {
        this.dataPartitions = dataPartitions;
    }

    /** The kinds of job a worker runs. */
    public enum JobKind {
        /** Dense classification model (ps.worker.model) on ps.worker.data. */
        CLASSIFICATION,
        /** Wide-and-deep click prediction on synthetic click data, with sparse embedding tables. */
        CTR,
        /**
         * Softmax regression on LibSVM data (ps.worker.data=LIBSVM) whose weights are a sparse table, one row
         * per feature; exported as the dense SOFTMAX graph.
         */
        SPARSE_LINEAR
    }

    public JobKind getJob() {
        return job;
    }

    /** @return whether the job can read the data format: the SPARSE_LINEAR job reads LibSVM only */
    @jakarta.validation.constraints.AssertTrue(message = "ps.worker.job=SPARSE_LINEAR reads LibSVM files: set "
            + "ps.worker.data=LIBSVM")
    public boolean isDataReadableByJob() {
        return job != JobKind.SPARSE_LINEAR || data == DataSource.LIBSVM;
    }

    public void setJob(JobKind job) {
        this.job = job;
    }

    public CtrProperties getCtr() {
        return ctr;
    }

    /** Where training samples come from. */
    public enum DataSource {
        /** MNIST IDX files under {@code data-path}. */
        MNIST,
        /** A seeded synthetic classification set (fast tests). */
        SYNTHETIC,
        /** CSV files {@code train-file} and {@code test-file}: one example per row, see {@code ps.worker.csv.*}. */
        CSV,
        /** NumPy {@code .npy} pairs: {@code train-file} + {@code train-labels-file}, {@code test-file} + {@code test-labels-file}. */
        NPY,
        /** LibSVM (svmlight) files {@code train-file} and {@code test-file}, spread into dense rows of {@code num-features}. */
        LIBSVM
    }

    public String getDataPath() {
        return dataPath;
    }

    public void setDataPath(String dataPath) {
        this.dataPath = dataPath;
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public GraphProperties getGraph() {
        return graph;
    }

    public CsvProperties getCsv() {
        return csv;
    }

    public String getTrainFile() {
        return trainFile;
    }

    public void setTrainFile(String trainFile) {
        this.trainFile = trainFile;
    }

    public String getTestFile() {
        return testFile;
    }

    public void setTestFile(String testFile) {
        this.testFile = testFile;
    }

    public String getTrainLabelsFile() {
        return trainLabelsFile;
    }

    public void setTrainLabelsFile(String trainLabelsFile) {
        this.trainLabelsFile = trainLabelsFile;
    }

    public String getTestLabelsFile() {
        return testLabelsFile;
    }

    public void setTestLabelsFile(String testLabelsFile) {
        this.testLabelsFile = testLabelsFile;
    }

    public int getNumFeatures() {
        return numFeatures;
    }

    public void setNumFeatures(int numFeatures) {
        this.numFeatures = numFeatures;
    }

    public int getNumClasses() {
        return numClasses;
    }

    public void setNumClasses(int numClasses) {
        this.numClasses = numClasses;
    }

    public String getPluginsDir() {
        return pluginsDir;
    }

    public void setPluginsDir(String pluginsDir) {
        this.pluginsDir = pluginsDir;
    }

    public String getExportDir() {
        return exportDir;
    }

    public void setExportDir(String exportDir) {
        this.exportDir = exportDir;
    }

    public int getEpochs() {
        return epochs;
    }

    public void setEpochs(int epochs) {
        this.epochs = epochs;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public long getSeed() {
        return seed;
    }

    public void setSeed(long seed) {
        this.seed = seed;
    }

    public int getLogInterval() {
        return logInterval;
    }

    public void setLogInterval(int logInterval) {
        this.logInterval = logInterval;
    }

    public int getTrainLimit() {
        return trainLimit;
    }

    public void setTrainLimit(int trainLimit) {
        this.trainLimit = trainLimit;
    }

    public int getTestLimit() {
        return testLimit;
    }

    public void setTestLimit(int testLimit) {
        this.testLimit = testLimit;
    }

    public int getMaxSteps() {
        return maxSteps;
    }

    public void setMaxSteps(int maxSteps) {
        this.maxSteps = maxSteps;
    }

    public int getEvalBatchSize() {
        return evalBatchSize;
    }

    public void setEvalBatchSize(int evalBatchSize) {
        this.evalBatchSize = evalBatchSize;
    }

    public Duration getServerWaitTimeout() {
        return serverWaitTimeout;
    }

    public void setServerWaitTimeout(Duration serverWaitTimeout) {
        this.serverWaitTimeout = serverWaitTimeout;
    }

    public Duration getServerWaitInterval() {
        return serverWaitInterval;
    }

    public void setServerWaitInterval(Duration serverWaitInterval) {
        this.serverWaitInterval = serverWaitInterval;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public Duration getConnectionLossTimeout() {
        return connectionLossTimeout;
    }

    public void setConnectionLossTimeout(Duration connectionLossTimeout) {
        this.connectionLossTimeout = connectionLossTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Duration getRecoveryTimeout() {
        return recoveryTimeout;
    }

    public void setRecoveryTimeout(Duration recoveryTimeout) {
        this.recoveryTimeout = recoveryTimeout;
    }

    public String getOutputDir() {
        return outputDir;
    }

    public void setOutputDir(String outputDir) {
        this.outputDir = outputDir;
    }

    public DataSource getData() {
        return data;
    }

    public void setData(DataSource data) {
        this.data = data;
    }

    public Duration getStepDelay() {
        return stepDelay;
    }

    public void setStepDelay(Duration stepDelay) {
        this.stepDelay = stepDelay;
    }

    public PlacementMode getPlacement() {
        return placement;
    }

    public void setPlacement(PlacementMode placement) {
        this.placement = placement;
    }

    public List<String> getLocalParams() {
        return localParams;
    }

    public void setLocalParams(List<String> localParams) {
        this.localParams = localParams;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public boolean isExitOnFinish() {
        return exitOnFinish;
    }

    public void setExitOnFinish(boolean exitOnFinish) {
        this.exitOnFinish = exitOnFinish;
    }
}

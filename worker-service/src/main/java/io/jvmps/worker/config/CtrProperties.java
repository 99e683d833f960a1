package io.jvmps.worker.config;

import io.jvmps.common.embedding.EvictionPolicy;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * The click-through-rate job ({@code ps.worker.job=CTR}), bound from {@code ps.worker.ctr.*}: the synthetic
 * click data, the wide-and-deep model and its embedding tables, and the embedding cache. Epochs, batch
 * size, seed, log interval and max steps are the worker's general settings.
 */
public class CtrProperties {
    /** Categorical fields per example. */
    @Min(2) @Max(64)
    private int fields = 8;
    /** Distinct values per field (the deep table holds up to fields x vocabulary rows). */
    @Min(2) @Max(1 << 30)
    private int vocabulary = 10_000;
    /** Zipf exponent of the value frequencies. */
    @DecimalMin(value = "0", inclusive = false)
    private double zipf = 1.05;
    /** Crossed field pairs (0,1), (2,3), ... in the ground truth and in the wide part. */
    @Min(0) @Max(32)
    private int crosses = 3;
    /** Standard deviation of a field value's hidden weight. */
    @DecimalMin("0")
    private double weightSigma = 0.6;
    /** Standard deviation of a crossed pair's hidden weight. */
    @DecimalMin("0")
    private double crossSigma = 0.8;
    /** Hidden base logit. */
    private double bias = -1.0;
    /** Training examples (shared out among the workers). */
    @Min(1)
    private int trainSize = 100_000;
    /** Test examples (each worker scores its shard). */
    @Min(1)
    private int testSize = 20_000;
    /** Embedding width of the deep part. */
    @Min(1) @Max(4096)
    private int dim = 8;
    /** First hidden layer width. */
    @Min(1)
    private int hidden1 = 32;
    /** Second hidden layer width. */
    @Min(1)
    private int hidden2 = 16;
    /** Half-width of the tables' uniform initial values. */
    @DecimalMin("0")
    private float initScale = 0.01f;
    /** Servers' optimizer for the two tables (SGD, ADAGRAD, ADAM, FTRL, ...); empty = the servers' ps.optimizer.type. */
    @NotNull
    private String tableOptimizer = "";
    /** Rows each table's embedding cache holds (MindSpore's vocab_cache_size); 0 = no cache. */
    @Min(0)
    private int vocabCacheSize = 0;
    /** Which cached row to evict. */
    @NotNull
    private EvictionPolicy eviction = EvictionPolicy.LRU;
    /**
     * init_in_server: create every row of the deep table's vocabulary (fields x vocabulary) on the servers when
     * the table is declared, instead of on first use.
     */
    private boolean initInServer = false;
    /** Rate of the local SGD on cached rows; 0 = the servers' learning rate. */
    @DecimalMin("0")
    private double cacheLearningRate = 0;
    /**
     * Evicted changed rows an embedding cache gathers before it writes them back to the servers in one push
     * per server (1 = after every lookup that evicted some); flush and a graceful shutdown send the rest.
     */
    @Min(1)
    private int writeBackRows = 4096;

    public int getFields() { return fields; }
    public void setFields(int fields) { this.fields = fields; }
    public int getVocabulary() { return vocabulary; }
    public void setVocabulary(int vocabulary) { this.vocabulary = vocabulary; }
    public double getZipf() { return zipf; }
    public void setZipf(double zipf) { this.zipf = zipf; }
    public int getCrosses() { return crosses; }
    public void setCrosses(int crosses) { this.crosses = crosses; }
    public double getWeightSigma() { return weightSigma; }
    public void setWeightSigma(double weightSigma) { this.weightSigma = weightSigma; }
    public double getCrossSigma() { return crossSigma; }
    public void setCrossSigma(double crossSigma) { this.crossSigma = crossSigma; }
    public double getBias() { return bias; }
    public void setBias(double bias) { this.bias = bias; }
    public int getTrainSize() { return trainSize; }
    public void setTrainSize(int trainSize) { this.trainSize = trainSize; }
    public int getTestSize() { return testSize; }
    public void setTestSize(int testSize) { this.testSize = testSize; }
    public int getDim() { return dim; }
    public void setDim(int dim) { this.dim = dim; }
    public int getHidden1() { return hidden1; }
    public void setHidden1(int hidden1) { this.hidden1 = hidden1; }
    public int getHidden2() { return hidden2; }
    public void setHidden2(int hidden2) { this.hidden2 = hidden2; }
    public float getInitScale() { return initScale; }
    public void setInitScale(float initScale) { this.initScale = initScale; }
    public String getTableOptimizer() { return tableOptimizer; }
    public void setTableOptimizer(String tableOptimizer) { this.tableOptimizer = tableOptimizer; }
    public int getVocabCacheSize() { return vocabCacheSize; }
    public void setVocabCacheSize(int vocabCacheSize) { this.vocabCacheSize = vocabCacheSize; }
    public EvictionPolicy getEviction() { return eviction; }
    public void setEviction(EvictionPolicy eviction) { this.eviction = eviction; }
    public boolean isInitInServer() { return initInServer; }
    public void setInitInServer(boolean initInServer) { this.initInServer = initInServer; }
    public double getCacheLearningRate() { return cacheLearningRate; }
    public void setCacheLearningRate(double cacheLearningRate) { this.cacheLearningRate = cacheLearningRate; }
    public int getWriteBackRows() { return writeBackRows; }
    public void setWriteBackRows(int writeBackRows) { this.writeBackRows = writeBackRows; }
}

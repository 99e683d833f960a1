package io.jvmps.worker.config;

import io.jvmps.common.embedding.EvictionPolicy;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The click-through-rate job ({@code ps.worker.job=CTR}), bound from {@code ps.worker.ctr.*}: the synthetic click
 * data, the wide-and-deep model and its embedding tables, and the embedding cache. Epochs, batch size, seed, log
 * interval and max steps are the worker's training settings ({@code ps.worker.training.*}).
 *
 * @param fields categorical fields per example
 * @param vocabulary distinct values per field (the deep table holds up to fields x vocabulary rows)
 * @param zipf Zipf exponent of the value frequencies
 * @param crosses crossed field pairs (0,1), (2,3), ... in the ground truth and in the wide part
 * @param weightSigma standard deviation of a field value's hidden weight
 * @param crossSigma standard deviation of a crossed pair's hidden weight
 * @param bias hidden base logit
 * @param trainSize training examples (shared out among the workers)
 * @param testSize test examples (each worker scores its shard)
 * @param dim embedding width of the deep part
 * @param hidden1 first hidden layer width
 * @param hidden2 second hidden layer width
 * @param initScale half-width of the tables' uniform initial values
 * @param tableOptimizer servers' optimizer for the two tables (SGD, ADAGRAD, ADAM, FTRL, ...); empty = the servers'
 *     ps.optimizer.type
 * @param vocabCacheSize rows each table's embedding cache holds (MindSpore's vocab_cache_size); 0 = no cache
 * @param eviction which cached row to evict
 * @param initInServer init_in_server: create every row of the deep table's vocabulary (fields x vocabulary) on the
 *     servers when the table is declared, instead of on first use
 * @param cacheLearningRate rate of the local SGD on cached rows; 0 = the servers' learning rate
 * @param writeBackRows evicted changed rows an embedding cache gathers before it writes them back to the servers in
 *     one push per server (1 = after every lookup that evicted some); flush and a graceful shutdown send the rest
 * @param admitAfter pushes an id needs before the servers give it a row in either table (1 = at once); until then its
 *     lookups read the initial value and its gradients are dropped ({@link io.jvmps.common.sparse.RowLifecycle})
 * @param evictAfterSteps steps without a push after which the servers remove a row of either table (0 = never)
 * @param evictWhenFull when a push's new rows do not fit a server's ps.sparse.max-bytes, remove the table's least
 *     updated rows to make room instead of refusing the push
 */
public record CtrProperties(
        @Min(2) @Max(64) @DefaultValue("8") int fields,
        @Min(2) @Max(1 << 30) @DefaultValue("10000") int vocabulary,
        @DecimalMin(value = "0", inclusive = false) @DefaultValue("1.05") double zipf,
        @Min(0) @Max(32) @DefaultValue("3") int crosses,
        @DecimalMin("0") @DefaultValue("0.6") double weightSigma,
        @DecimalMin("0") @DefaultValue("0.8") double crossSigma,
        @DefaultValue("-1.0") double bias,
        @Min(1) @DefaultValue("100000") int trainSize,
        @Min(1) @DefaultValue("20000") int testSize,
        @Min(1) @Max(4096) @DefaultValue("8") int dim,
        @Min(1) @DefaultValue("32") int hidden1,
        @Min(1) @DefaultValue("16") int hidden2,
        @DecimalMin("0") @DefaultValue("0.01") float initScale,
        @NotNull @DefaultValue("") String tableOptimizer,
        @Min(0) @DefaultValue("0") int vocabCacheSize,
        @NotNull @DefaultValue("LRU") EvictionPolicy eviction,
        @DefaultValue("false") boolean initInServer,
        @DecimalMin("0") @DefaultValue("0") double cacheLearningRate,
        @Min(1) @DefaultValue("4096") int writeBackRows,
        @Min(1) @Max(255) @DefaultValue("1") int admitAfter,
        @Min(0) @DefaultValue("0") long evictAfterSteps,
        @DefaultValue("false") boolean evictWhenFull) {

    /** @return whether the crossed pairs fit the fields: pairs (0,1), (2,3), ... need two fields each */
    @jakarta.validation.constraints.AssertTrue(message = "ps.worker.ctr.crosses must be at most "
            + "ps.worker.ctr.fields / 2: each crossed pair takes two fields")
    public boolean isCrossesWithinFields() {
        return crosses <= fields / 2;
    }

    /** @return when the servers give an id a row in the job's tables and remove an idle one */
    public io.jvmps.common.sparse.RowLifecycle lifecycle() {
        return new io.jvmps.common.sparse.RowLifecycle(admitAfter, evictAfterSteps, evictWhenFull);
    }
}

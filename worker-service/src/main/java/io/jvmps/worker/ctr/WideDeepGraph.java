package io.jvmps.worker.ctr;

import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.worker.model.InitScheme;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

/**
 * Wide and deep (Cheng et al., 2016) for click prediction, the CTR job's built-in SameDiff graph, whose two embedding
 * tables the library's trainer keeps on the servers:
 * <pre>
 *   wide  = reshape(gather(ctr.wide, wide_ids), [n, W]) wide_W  ctr.wide: one weight per id (field value, crossed
 *                                                              pair); wide_W [W, 1] a scale per position, from ones
 *   deep  = reshape(gather(ctr.deep, deep_ids), [n, F*d])     ctr.deep: a d-wide embedding per field value
 *   logit = wide + W3 relu(W2 relu(W1 deep + b1) + b2) + b3
 *   probability = sigmoid(logit); loss = mean sigmoid cross-entropy against the click
 * </pre>
 * Both tables are hashed (any 64-bit id; {@link ClickData} gives crossed pairs ids far above the field values), so the
 * graph holds no vocabulary-sized array; the exported model writes their rows beside the graph file. The dense
 * weights start seeded Xavier-normal, the biases at zero, {@code wide_W} at one. Built once per job.
 */
public final class WideDeepGraph {
    /** Name of the wide table (one weight per field value and crossed pair). */
    public static final String WIDE_TABLE = "ctr.wide";
    /** Name of the deep table (field embeddings). */
    public static final String DEEP_TABLE = "ctr.deep";
    /** The wide ids' placeholder, int64 {@code [n, W]}. */
    public static final String WIDE_IDS = "wide_ids";
    /** The deep ids' placeholder, int64 {@code [n, F]}. */
    public static final String DEEP_IDS = "deep_ids";
    /** The click probability, {@code [n, 1]}. */
    public static final String PROBABILITY = "probability";
    /** The dense parameters' names. */
    public static final java.util.List<String> DENSE = java.util.List.of("W1", "b1", "W2", "b2", "W3", "b3", "wide_W");
    /** The graph's names: no feature placeholder (every input is an id), the click label, the loss, the probability. */
    public static final GraphNames NAMES = new GraphNames("input", "label", "loss", PROBABILITY);

    private WideDeepGraph() {
    }

    /**
     * @param spec      the click data's shape (fields F, wide ids W)
     * @param dim       embedding width d of the deep table
     * @param hidden1   first hidden layer width
     * @param hidden2   second hidden layer width
     * @param initScale half-width of the tables' uniform initial rows
     * @param seed      seeds the dense weights and both tables' rows
     * @param optimizer the servers' optimizer for the tables, or {@code null} for their default
     * @param initRows  rows of the deep table (ids {@code 0 .. initRows - 1}) the servers create when it is declared,
     *                  or 0 for each on first use
     */
    public static SameDiffGraph build(ClickDataSpec spec, int dim, int hidden1, int hidden2, float initScale, long seed,
                                      String optimizer, long initRows) {
        return build(spec, dim, hidden1, hidden2, initScale, seed, optimizer, initRows,
                io.jvmps.common.sparse.RowLifecycle.KEEP_ALL);
    }

    /**
     * The same graph, its two tables declared with {@code lifecycle} (admission of new ids, eviction of idle rows).
     */
    public static SameDiffGraph build(ClickDataSpec spec, int dim, int hidden1, int hidden2, float initScale, long seed,
                                      String optimizer, long initRows, io.jvmps.common.sparse.RowLifecycle lifecycle) {
        int fields = spec.fields();
        SameDiff sd = SameDiff.create();
        SDVariable wideIds = sd.placeHolder(WIDE_IDS, DataType.INT64, -1, spec.wideIds());
        SDVariable deepIds = sd.placeHolder(DEEP_IDS, DataType.INT64, -1, fields);
        SDVariable label = sd.placeHolder(NAMES.label(), DataType.FLOAT, -1, 1);
        SDVariable wideTable = sd.var(WIDE_TABLE, Nd4j.zeros(DataType.FLOAT, 1, 1));
        SDVariable deepTable = sd.var(DEEP_TABLE, Nd4j.zeros(DataType.FLOAT, 1, dim));
        Random random = new Random(seed);
        SDVariable w1 = sd.var("W1", xavier(random, fields * dim, hidden1));
        SDVariable b1 = sd.var("b1", Nd4j.zeros(DataType.FLOAT, hidden1));
        SDVariable w2 = sd.var("W2", xavier(random, hidden1, hidden2));
        SDVariable b2 = sd.var("b2", Nd4j.zeros(DataType.FLOAT, hidden2));
        SDVariable w3 = sd.var("W3", xavier(random, hidden2, 1));
        SDVariable b3 = sd.var("b3", Nd4j.zeros(DataType.FLOAT, 1));
        // a learned scale per wide position (starting at one) on top of the per-id weights: with Adagrad on both it
        // lets a field's weights move as a whole, which reached the oracle closer than a plain sum (0.019 against
        // 0.039 AUC below it on CtrBenchmark#aucAgainstTheOracle)
        SDVariable wideScale = sd.var("wide_W", Nd4j.ones(DataType.FLOAT, spec.wideIds(), 1));
        SDVariable wide = sd.reshape(sd.gather(wideTable, wideIds, 0), -1, spec.wideIds()).mmul(wideScale); // [n, 1]
        SDVariable deep = sd.reshape(sd.gather(deepTable, deepIds, 0), -1, (long) fields * dim);    // [n, F*d]
        SDVariable h1 = sd.nn().relu(sd.nn().linear(deep, w1, b1), 0);
        SDVariable h2 = sd.nn().relu(sd.nn().linear(h1, w2, b2), 0);
        SDVariable logit = sd.nn().linear(h2, w3, b3).add(wide);
        sd.nn().sigmoid(PROBABILITY, logit);
        sd.loss().sigmoidCrossEntropy(NAMES.loss(), label, logit, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        EmbeddingTable wideSpec = EmbeddingTable.of(WIDE_TABLE).asHashed().withInit(0f, seed).withLifecycle(lifecycle);
        EmbeddingTable deepSpec = EmbeddingTable.of(DEEP_TABLE).asHashed().withInit(initScale, seed + 1)
                .withInitRows(initRows).withLifecycle(lifecycle);
        if (optimizer != null) {
            wideSpec = wideSpec.withOptimizer(optimizer);
            deepSpec = deepSpec.withOptimizer(optimizer);
        }
        return SameDiffGraph.withTables(sd, NAMES, "the CTR job's wide-and-deep", wideSpec, deepSpec);
    }

    private static org.nd4j.linalg.api.ndarray.INDArray xavier(Random random, int in, int out) {
        return Nd4j.create(InitScheme.XAVIER_NORMAL.sample(random, in * out, in, out), new long[] {in, out},
                DataType.FLOAT);
    }
}

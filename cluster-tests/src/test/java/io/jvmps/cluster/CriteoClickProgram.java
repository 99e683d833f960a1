package io.jvmps.cluster;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.client.train.SameDiffTrainer;
import io.jvmps.common.metrics.ClickHistogram;
import org.nd4j.autodiff.samediff.SDIndex;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A user's click model on the library, not in the product: a DeepFM-style graph over the 26 categorical fields of
 * Criteo-format files (the worker jar's {@code clicks} command writes them), one hashed table per field whose rows
 * hold a first-order weight and an 8-value embedding; the logit adds the weights, the factorisation machine's
 * pairwise term of the embeddings and a one-hidden-layer network over them; log loss. It trains its shard, scores
 * its shard of the test file and reports the histogram (the job status merges the workers' AUC), and prints
 * {@code RESULT auc=<shard's> logloss=<shard's> n=<examples> steps=<n> seconds=<training>}. Arguments: the scheduler as
 * {@code host:port}, the data folder ({@code train.tsv}, {@code test.tsv}), epochs, the L2 penalty. The secret comes from
 * {@code PS_SECURITY_SECRET}.
 */
public final class CriteoClickProgram {
    static final int FIELDS = 26;
    static final int DIM = 8;
    static final int HIDDEN = 32;
    static final int BATCH = 256;

    private CriteoClickProgram() {
    }

    public static void main(String[] args) throws Exception {
        if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.INFO);
        }
        String[] scheduler = args[0].split(":");
        Path data = Path.of(args[1]);
        int epochs = Integer.parseInt(args[2]);
        double l2 = Double.parseDouble(args[3]);
        CsvFile train = CsvFile.open(data.resolve("train.tsv"), CsvFormat.criteo(), 0);
        CsvFile test = CsvFile.open(data.resolve("test.tsv"), CsvFormat.criteo(), 0);
        ClientSettings settings = ClientSettings.of(scheduler[0], Integer.parseInt(scheduler[1]),
                System.getenv("PS_SECURITY_SECRET"));
        try (PsJob job = PsJob.join(settings)) {
            SameDiffTrainer trainer = new SameDiffTrainer(job, graph(l2));
            SameDiffTrainer.Result result = trainer.fit(train, BATCH, epochs, 7);
            ClickHistogram scores = trainer.evaluateClicksShard(test);
            job.reportClicks(scores, result.seconds());
            System.out.println(String.format(Locale.ROOT, "RESULT auc=%.4f logloss=%.4f n=%d steps=%d seconds=%.1f",
                    scores.auc(), scores.logLoss(), scores.examples(), result.steps(), result.seconds()));
        }
    }

    /**
     * @param l2 the L2 penalty on every row an example reads, per example
     * @return the DeepFM-style graph: placeholders {@code c1..c26} (int64 [n]) and {@code label} [n, 1]
     */
    static SameDiffGraph graph(double l2) {
        Nd4j.getRandom().setSeed(11);
        SameDiff sd = SameDiff.create();
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        EmbeddingTable[] tables = new EmbeddingTable[FIELDS];
        SDVariable firstOrder = null;
        SDVariable sum = null;
        SDVariable sumOfSquares = null;
        SDVariable penalty = null;
        SDVariable[] embeddings = new SDVariable[FIELDS];
        for (int f = 0; f < FIELDS; f++) {
            String column = "c" + (f + 1);
            SDVariable ids = sd.placeHolder(column, DataType.INT64, -1);
            SDVariable table = sd.var("field" + (f + 1), Nd4j.zeros(DataType.FLOAT, 1, DIM + 1));
            tables[f] = EmbeddingTable.of(table.name()).asHashed().withInit(0.05f, f + 1);
            SDVariable row = sd.gather(table, ids, 0);                                          // [n, 1 + dim]
            SDVariable w = row.get(SDIndex.all(), SDIndex.interval(0, 1));
            SDVariable v = row.get(SDIndex.all(), SDIndex.interval(1, DIM + 1));
            embeddings[f] = v;
            firstOrder = firstOrder == null ? w : firstOrder.add(w);
            sum = sum == null ? v : sum.add(v);
            sumOfSquares = sumOfSquares == null ? v.mul(v) : sumOfSquares.add(v.mul(v));
            SDVariable squared = row.mul(row).sum(true, 1);
            penalty = penalty == null ? squared : penalty.add(squared);
        }
        SDVariable fm = sum.mul(sum).sub(sumOfSquares).sum(true, 1).mul(0.5);
        SDVariable deepIn = sd.concat(1, embeddings);                                           // [n, 26 * dim]
        SDVariable w1 = sd.var("w1", Nd4j.randn(DataType.FLOAT, FIELDS * DIM, HIDDEN).muli(Math.sqrt(2.0 / (FIELDS * DIM))));
        SDVariable b1 = sd.var("b1", Nd4j.zeros(DataType.FLOAT, 1, HIDDEN));
        SDVariable w2 = sd.var("w2", Nd4j.randn(DataType.FLOAT, HIDDEN, 1).muli(Math.sqrt(1.0 / HIDDEN)));
        SDVariable bias = sd.var("bias", Nd4j.valueArrayOf(new long[] {1, 1}, -1.0f));
        SDVariable deep = sd.nn().relu(deepIn.mmul(w1).add(b1), 0).mmul(w2);
        SDVariable logit = firstOrder.add(fm).add(deep).add(bias);
        sd.nn().sigmoid(logit).rename("prediction");
        sd.nn().softplus(logit).sub(label.mul(logit)).add(penalty.mul(l2)).mean().rename("loss");
        return SameDiffGraph.withTables(sd, new GraphNames("input", "label", "loss", "prediction"), "DeepFM", tables);
    }
}

package io.jvmps.cluster;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.dataset.ColumnKind;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;
import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.client.train.SameDiffTrainer;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A user's recommendation model as a program of its own on the client library: a matrix factorisation with user
 * and movie biases on MovieLens ratings ({@code scripts/fetch-movielens.sh}), written as an ordinary SameDiff graph
 * ({@code gather(table, ids)}) whose four tables live on the servers ({@link EmbeddingTable}) and whose global mean
 * is a dense parameter. Trains the worker's shard, scores the test set's shard, reports it to the scheduler (whose job status sums
 * the workers' errors to the job's RMSE) and prints
 * {@code RESULT sse=<sum of squared errors> sae=<sum of absolute errors> n=<ratings> steps=<n>}; rank 0 also saves
 * the trained graph as {@code <out>/ratings.sd}, every bounded table inside it and the hashed one beside it
 * ({@code movieBias.ids.npy}, {@code movieBias.rows.npy}). Arguments: the scheduler as
 * {@code host:port}, the data folder, epochs, the output folder. The secret comes from {@code PS_SECURITY_SECRET}.
 */
public final class RatingsProgram {
    static final int USERS = 672;
    static final int MOVIES = 163_950;
    static final int FACTORS = 32;
    static final double L2 = 0.08;
    static final int BATCH = 256;

    private RatingsProgram() {
    }

    public static void main(String[] args) throws Exception {
        if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.INFO);
        }
        String[] scheduler = args[0].split(":");
        Path data = Path.of(args[1]);
        int epochs = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        CsvFile train = ratings(data.resolve("ratings-train.csv"));
        CsvFile test = ratings(data.resolve("ratings-test.csv"));
        ClientSettings settings = ClientSettings.of(scheduler[0], Integer.parseInt(scheduler[1]),
                System.getenv("PS_SECURITY_SECRET"));
        try (PsJob job = PsJob.join(settings)) {
            SameDiffTrainer trainer = new SameDiffTrainer(job, graph());
            SameDiffTrainer.Result result = trainer.fit(train, BATCH, epochs, 7);
            SameDiffTrainer.Regression score = trainer.evaluateRegressionShard(test);
            job.reportRegression(score.squaredError(), score.absoluteError(), score.targets(), result.seconds());
            if (job.rank() == 0) {
                trainer.save(out.resolve("ratings.sd"));
            }
            System.out.println(String.format(Locale.ROOT, "RESULT sse=%.6f sae=%.6f n=%d steps=%d",
                    score.squaredError(), score.absoluteError(), score.targets(), result.steps()));
        }
    }

    /**
     * @return the factorisation: a rating is {@code mean + userBias[user] + movieBias[movie] + userFactors[user] .
     * movieFactors[movie]}, each table read by {@code gather}, with an L2 penalty on every row a batch reads;
     * placeholders {@code userId}, {@code movieId} (int64 [n], named as the CSV's columns) and {@code label} [n, 1]
     */
    static SameDiffGraph graph() {
        SameDiff sd = SameDiff.create();
        SDVariable user = sd.placeHolder("userId", DataType.INT64, -1);
        SDVariable movie = sd.placeHolder("movieId", DataType.INT64, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable userFactors = sd.var("userFactors", Nd4j.zeros(DataType.FLOAT, USERS, FACTORS));
        SDVariable movieFactors = sd.var("movieFactors", Nd4j.zeros(DataType.FLOAT, MOVIES, FACTORS));
        SDVariable userBias = sd.var("userBias", Nd4j.zeros(DataType.FLOAT, USERS, 1));
        SDVariable movieBias = sd.var("movieBias", Nd4j.zeros(DataType.FLOAT, MOVIES, 1));
        SDVariable mean = sd.var("mean", Nd4j.valueArrayOf(new long[] {1, 1}, 3.5f));
        SDVariable p = sd.gather(userFactors, user, 0);
        SDVariable q = sd.gather(movieFactors, movie, 0);
        SDVariable bu = sd.gather(userBias, user, 0);
        SDVariable bm = sd.gather(movieBias, movie, 0);
        SDVariable prediction = p.mul(q).sum(true, 1).add(bu).add(bm).add(mean).rename("prediction");
        SDVariable error = prediction.sub(label);
        SDVariable penalty = p.mul(p).sum(true, 1).add(q.mul(q).sum(true, 1)).add(bu.mul(bu)).add(bm.mul(bm)).mul(L2);
        error.mul(error).add(penalty).mean().rename("loss");
        return SameDiffGraph.withTables(sd, new GraphNames("input", "label", "loss", "prediction"),
                "rating factorisation", EmbeddingTable.of("userFactors"), EmbeddingTable.of("movieFactors"),
                EmbeddingTable.of("userBias").withInit(0f, 0), EmbeddingTable.of("movieBias").withInit(0f, 0)
                        .asHashed());
    }

    /** How the ratings files are read: the two ids as they are, the rating as a real label, the genres left out. */
    static final CsvFormat FORMAT = CsvFormat.of("rating", true, ",").withLabel(LabelKind.REAL)
            .withColumn("userId", ColumnKind.ID).withColumn("movieId", ColumnKind.ID)
            .withColumn("genres", ColumnKind.SKIP);

    /** @return a ratings file (userId,movieId,rating,genres), read row by row by the library's CSV reader */
    static CsvFile ratings(Path file) {
        return CsvFile.open(file, FORMAT, 0);
    }
}

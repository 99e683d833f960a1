package com.example.movielens;

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
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A user's recommendation model on jvm-ps: a matrix factorisation of MovieLens ratings with user and movie biases,
 * each movie's factors joined by the mean of its genres' factors (a multi-valued field), written as an ordinary
 * SameDiff graph ({@code gather(table, ids)}) whose five tables live on the servers and whose global mean is a
 * dense parameter. It joins a running job as one of its workers, trains on its shard of
 * {@code ratings-train.csv}, scores its shard of {@code ratings-test.csv} and reports it (the job status shows the
 * job's RMSE), and on worker 0 saves the model to {@code <out>/ratings.sd}, the hashed genre table beside it.
 *
 * <pre>
 * java -cp ... com.example.movielens.MovieLensTraining --scheduler=HOST:PORT --data=DIR --out=DIR
 *      [--secret=S (default: $PS_SECURITY_SECRET)] [--epochs=10] [--batch=256]
 * java -cp ... com.example.movielens.MovieLensTraining --write-graph=FILE
 * </pre>
 *
 * With {@code --write-graph} it only saves the untrained graph to {@code FILE}, for the stock worker to train (its
 * tables declared with {@code ps.worker.graph.tables=}{@value #TABLES}).
 *
 * The servers' optimizer trains every table and the mean (ADAGRAD with learning rate 0.04 and initial accumulator
 * 0 gets test RMSE about 0.855 in 10 epochs). It prints
 * {@code RESULT sse=<squared errors> sae=<absolute errors> n=<ratings> steps=<n> rmse=<its shard's> seconds=<training>
 * pull=<of which reading parameters, waits included> compute=<the graph> push=<sending gradients>};
 * it exits with 1 on any error.
 */
public final class MovieLensTraining {
    /** Users' ids are 1..671. */
    static final int USERS = 672;
    /** Movies' ids are 1..163949. */
    static final int MOVIES = 163_950;
    static final int FACTORS = 32;
    /** Rows of the genre table's variable as built; the table is hashed, so its rows are the ids the data has. */
    static final int GENRE_ROWS = 32;
    static final double L2 = 0.1;
    static final double BIAS_L2 = 0.01;
    static final double GENRE_L2 = 0.001;

    /**
     * How the ratings files are read: the two ids as they are, the genres as hashed ids split at {@code |} (with
     * the mask {@code genres_mask}), the rating as a real label.
     */
    static final CsvFormat FORMAT = CsvFormat.of("rating", true, ",").withLabel(LabelKind.REAL)
            .withColumn("userId", ColumnKind.ID).withColumn("movieId", ColumnKind.ID)
            .withColumn("genres", ColumnKind.HASHED_IDS);

    private MovieLensTraining() {
    }

    /** The tables as {@link #graph} declares them, written as the stock worker's {@code ps.worker.graph.tables}. */
    public static final String TABLES = "userFactors,movieFactors,genreFactors:hashed:init=0:seed=0,"
            + "userBias:init=0:seed=0,movieBias:init=0:seed=0";

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        if (opts.containsKey("write-graph")) {
            Path file = Path.of(require(opts, "write-graph"));
            model().save(file.toFile(), false);
            System.out.println("WROTE " + file);
            return;
        }
        String[] scheduler = require(opts, "scheduler").split(":");
        String secret = opts.getOrDefault("secret", System.getenv("PS_SECURITY_SECRET"));
        if (secret == null) {
            System.err.println("no cluster secret: pass --secret or set PS_SECURITY_SECRET");
            System.exit(1);
        }
        Path data = Path.of(require(opts, "data"));
        Path out = Path.of(require(opts, "out"));
        int epochs = Integer.parseInt(opts.getOrDefault("epochs", "10"));
        int batch = Integer.parseInt(opts.getOrDefault("batch", "256"));
        ClientSettings settings = ClientSettings.of(scheduler[0], Integer.parseInt(scheduler[1]), secret);
        try (PsJob job = PsJob.join(settings)) {
            SameDiffTrainer trainer = new SameDiffTrainer(job, graph());
            SameDiffTrainer.Result result = trainer.fit(ratings(data, "ratings-train.csv"), batch, epochs, 7);
            SameDiffTrainer.Regression score = trainer.evaluateRegressionShard(ratings(data, "ratings-test.csv"));
            job.reportRegression(score.squaredError(), score.absoluteError(), score.targets(), result.seconds());
            if (job.rank() == 0) {
                Files.createDirectories(out);
                trainer.save(out.resolve("ratings.sd"));
            }
            SameDiffTrainer.Phases phases = result.phases();
            System.out.println(String.format(Locale.ROOT, "RESULT sse=%.6f sae=%.6f n=%d steps=%d rmse=%.4f seconds=%.1f"
                            + " pull=%.1f compute=%.1f push=%.1f", score.squaredError(), score.absoluteError(),
                    score.targets(), result.steps(), score.rmse(), result.seconds(), phases.pullSeconds(),
                    phases.computeSeconds(), phases.pushSeconds()));
        } catch (RuntimeException e) {
            System.err.println("training failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /** @return a ratings file (userId,movieId,rating,genres), read row by row by the library's CSV reader */
    static CsvFile ratings(Path data, String file) {
        return CsvFile.open(data.resolve(file), FORMAT, 0);
    }

    /**
     * @return the factorisation: a rating is {@code mean + userBias[user] + movieBias[movie] + userFactors[user] .
     * (movieFactors[movie] + mean of genreFactors[g] over the movie's genres)}, the genres pooled by their mask,
     * with an L2 penalty on every row a batch reads; placeholders {@code userId}, {@code movieId} (int64 [n], named
     * as the CSV's columns), {@code genres} (int64 [n, m]) with {@code genres_mask} (float [n, m]) and
     * {@code label} [n, 1]; the output {@code prediction} [n, 1]
     */
    static SameDiffGraph graph() {
        // the factors start uniform in [-0.05, 0.05) on the servers, the biases and genres at zero
        return SameDiffGraph.withTables(model(), new GraphNames("input", "label", "loss", "prediction"),
                "rating factorisation with genres", EmbeddingTable.of("userFactors"),
                EmbeddingTable.of("movieFactors"), EmbeddingTable.of("genreFactors").withInit(0f, 0).asHashed(),
                EmbeddingTable.of("userBias").withInit(0f, 0), EmbeddingTable.of("movieBias").withInit(0f, 0));
    }

    /** @return the graph of {@link #graph} as plain SameDiff, its tables ordinary variables */
    static SameDiff model() {
        SameDiff sd = SameDiff.create();
        SDVariable user = sd.placeHolder("userId", DataType.INT64, -1);
        SDVariable movie = sd.placeHolder("movieId", DataType.INT64, -1);
        SDVariable genres = sd.placeHolder("genres", DataType.INT64, -1, -1);
        SDVariable genreMask = sd.placeHolder("genres_mask", DataType.FLOAT, -1, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable userFactors = sd.var("userFactors", Nd4j.zeros(DataType.FLOAT, USERS, FACTORS));
        SDVariable movieFactors = sd.var("movieFactors", Nd4j.zeros(DataType.FLOAT, MOVIES, FACTORS));
        SDVariable genreFactors = sd.var("genreFactors", Nd4j.zeros(DataType.FLOAT, GENRE_ROWS, FACTORS));
        SDVariable userBias = sd.var("userBias", Nd4j.zeros(DataType.FLOAT, USERS, 1));
        SDVariable movieBias = sd.var("movieBias", Nd4j.zeros(DataType.FLOAT, MOVIES, 1));
        SDVariable mean = sd.var("mean", Nd4j.valueArrayOf(new long[] {1, 1}, 3.5f));
        SDVariable p = sd.gather(userFactors, user, 0);
        SDVariable q = sd.gather(movieFactors, movie, 0);
        SDVariable g = sd.gather(genreFactors, genres, 0);                                          // [n, m, k]
        SDVariable genreMean = g.mul(sd.expandDims(genreMask, 2)).sum(1).div(genreMask.sum(true, 1)); // [n, k]
        SDVariable bu = sd.gather(userBias, user, 0);
        SDVariable bm = sd.gather(movieBias, movie, 0);
        SDVariable prediction = p.mul(q.add(genreMean)).sum(true, 1).add(bu).add(bm).add(mean).rename("prediction");
        SDVariable error = prediction.sub(label);
        SDVariable penalty = p.mul(p).sum(true, 1).add(q.mul(q).sum(true, 1)).mul(L2)
                .add(bu.mul(bu).add(bm.mul(bm)).mul(BIAS_L2))
                .add(g.mul(g).sum(2).mul(genreMask).sum(true, 1).mul(GENRE_L2));
        error.mul(error).add(penalty).mean().rename("loss");
        return sd;
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("arguments are --name=value, got " + arg);
            }
            opts.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return opts;
    }

    static String require(Map<String, String> opts, String name) {
        String value = opts.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }
}

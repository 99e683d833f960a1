package io.jvmps.cluster;

import io.jvmps.client.dataset.ColumnKind;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;
import io.jvmps.client.dataset.LabeledData;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The baseline of the MovieLens benchmark: the model of {@code examples/movielens} (biased factorisation, a movie's
 * factors plus the mean of its genres' factors) trained by a plain Java loop in one process, with the settings the
 * cluster runs it with: batches of {@value #BATCH}, the mean loss's gradient summed per distinct row, Adagrad at
 * {@value #RATE} with initial accumulator 0, the same L2 terms, factors uniform in [-0.05, 0.05), biases, genres
 * and the accumulators at zero, the mean at 3.5. No nd4j: the arithmetic is written out, as a hand-written loop in
 * one process would be. Not thread-safe.
 */
final class OneProcessFactorisation {
    static final int BATCH = 256;
    static final double RATE = 0.04;
    static final int FACTORS = 32;
    static final double L2 = 0.1;
    static final double BIAS_L2 = 0.01;
    static final double GENRE_L2 = 0.001;
    private static final CsvFormat FORMAT = CsvFormat.of("rating", true, ",").withLabel(LabelKind.REAL)
            .withColumn("userId", ColumnKind.ID).withColumn("movieId", ColumnKind.ID)
            .withColumn("genres", ColumnKind.HASHED_IDS);

    /** Ratings as arrays: user, movie, genre indices (dense, per data set), the rating. */
    record Ratings(int[] users, int[] movies, int[][] genres, float[] labels) {
        static Ratings read(Path file, Map<Long, Integer> genreIndex) {
            CsvFile csv = CsvFile.open(file, FORMAT, 0);
            LabeledData rows = csv.rows(0, csv.size());
            int n = csv.size();
            long[] users = rows.ids().get("userId").toLongVector();
            long[] movies = rows.ids().get("movieId").toLongVector();
            long[][] genres = rows.ids().get("genres").toLongMatrix();
            float[][] mask = rows.ids().get("genres_mask").toFloatMatrix();
            int[][] genreRows = new int[n][];
            for (int i = 0; i < n; i++) {
                int count = 0;
                while (count < mask[i].length && mask[i][count] == 1f) {
                    count++;
                }
                genreRows[i] = new int[count];
                for (int j = 0; j < count; j++) {
                    genreRows[i][j] = genreIndex.computeIfAbsent(genres[i][j], id -> genreIndex.size());
                }
            }
            int[] u = new int[n];
            int[] m = new int[n];
            for (int i = 0; i < n; i++) {
                u[i] = Math.toIntExact(users[i]);
                m[i] = Math.toIntExact(movies[i]);
            }
            return new Ratings(u, m, genreRows, rows.labels().toFloatVector());
        }
    }

    /** One table's rows and Adagrad accumulators, {@code dim} floats per row. */
    private static final class Table {
        final int dim;
        final double[] values;
        final double[] accumulators;

        Table(int rows, int dim, double scale, SplittableRandom random) {
            this.dim = dim;
            this.values = new double[rows * dim];
            this.accumulators = new double[rows * dim];
            for (int i = 0; i < values.length && scale > 0; i++) {
                values[i] = (random.nextDouble() - 0.5) * 2 * scale;
            }
        }

        void apply(Map<Integer, double[]> gradients) {
            gradients.forEach((row, g) -> {
                for (int k = 0; k < dim; k++) {
                    int at = row * dim + k;
                    accumulators[at] += g[k] * g[k];
                    values[at] -= RATE * g[k] / (Math.sqrt(accumulators[at]) + 1e-8);
                }
            });
        }
    }

    private final Ratings train;
    private final Ratings test;
    private final Table users;
    private final Table movies;
    private final Table genres;
    private final Table userBias;
    private final Table movieBias;
    private double mean = 3.5;
    private double meanAccumulator;

    /** @param data the folder {@code scripts/fetch-movielens.sh} writes */
    OneProcessFactorisation(Path data) {
        Map<Long, Integer> genreIndex = new HashMap<>();
        train = Ratings.read(data.resolve("ratings-train.csv"), genreIndex);
        test = Ratings.read(data.resolve("ratings-test.csv"), genreIndex);
        SplittableRandom random = new SplittableRandom(7);
        users = new Table(672, FACTORS, 0.05, random);
        movies = new Table(163_950, FACTORS, 0.05, random);
        genres = new Table(genreIndex.size(), FACTORS, 0, random);
        userBias = new Table(672, 1, 0, random);
        movieBias = new Table(163_950, 1, 0, random);
    }

    /** @return the training ratings */
    Ratings train() {
        return train;
    }

    /** @return the test ratings */
    Ratings test() {
        return test;
    }

    /** @return the positions {@code 0 .. n - 1} in the seeded shuffled order of an epoch */
    static int[] shuffled(int n, long seed) {
        int[] order = java.util.stream.IntStream.range(0, n).toArray();
        SplittableRandom shuffle = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /** Trains one pass over the training ratings in a seeded shuffled order. */
    void epoch(long seed) {
        int n = train.labels.length;
        int[] order = shuffled(n, seed);
        for (int from = 0; from < n; from += BATCH) {
            step(order, from, Math.min(n, from + BATCH));
        }
    }

    private void step(int[] order, int from, int to) {
        Map<Integer, double[]> gUsers = new HashMap<>();
        Map<Integer, double[]> gMovies = new HashMap<>();
        Map<Integer, double[]> gGenres = new HashMap<>();
        Map<Integer, double[]> gUserBias = new HashMap<>();
        Map<Integer, double[]> gMovieBias = new HashMap<>();
        double gMean = 0;
        double c = 2.0 / (to - from);
        double[] item = new double[FACTORS];
        for (int t = from; t < to; t++) {
            int i = order[t];
            int u = train.users[i];
            int m = train.movies[i];
            int[] g = train.genres[i];
            double error = predict(u, m, g, item) - train.labels[i];
            double[] gu = gUsers.computeIfAbsent(u, x -> new double[FACTORS]);
            double[] gm = gMovies.computeIfAbsent(m, x -> new double[FACTORS]);
            for (int k = 0; k < FACTORS; k++) {
                double p = users.values[u * FACTORS + k];
                gu[k] += c * (error * item[k] + L2 * p);
                gm[k] += c * (error * p + L2 * movies.values[m * FACTORS + k]);
                for (int genre : g) {
                    gGenres.computeIfAbsent(genre, x -> new double[FACTORS])[k] +=
                            c * (error * p / g.length + GENRE_L2 * genres.values[genre * FACTORS + k]);
                }
            }
            gUserBias.computeIfAbsent(u, x -> new double[1])[0] += c * (error + BIAS_L2 * userBias.values[u]);
            gMovieBias.computeIfAbsent(m, x -> new double[1])[0] += c * (error + BIAS_L2 * movieBias.values[m]);
            gMean += c * error;
        }
        users.apply(gUsers);
        movies.apply(gMovies);
        genres.apply(gGenres);
        userBias.apply(gUserBias);
        movieBias.apply(gMovieBias);
        meanAccumulator += gMean * gMean;
        mean -= RATE * gMean / (Math.sqrt(meanAccumulator) + 1e-8);
    }

    /** @return the predicted rating; {@code item} receives the movie's factors plus its genres' mean */
    private double predict(int u, int m, int[] g, double[] item) {
        double prediction = mean + userBias.values[u] + movieBias.values[m];
        for (int k = 0; k < FACTORS; k++) {
            double genreMean = 0;
            for (int genre : g) {
                genreMean += genres.values[genre * FACTORS + k];
            }
            item[k] = movies.values[m * FACTORS + k] + (g.length == 0 ? 0 : genreMean / g.length);
            prediction += users.values[u * FACTORS + k] * item[k];
        }
        return prediction;
    }

    /** @return the test ratings' root mean squared error */
    double testRmse() {
        double squared = 0;
        double[] item = new double[FACTORS];
        for (int i = 0; i < test.labels.length; i++) {
            double error = predict(test.users[i], test.movies[i], test.genres[i], item) - test.labels[i];
            squared += error * error;
        }
        return Math.sqrt(squared / test.labels.length);
    }
}

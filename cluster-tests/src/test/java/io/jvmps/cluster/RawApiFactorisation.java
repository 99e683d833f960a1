package io.jvmps.cluster;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.sparse.DistinctIds;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;

import java.util.ArrayList;
import java.util.List;

import static io.jvmps.cluster.OneProcessFactorisation.BATCH;
import static io.jvmps.cluster.OneProcessFactorisation.BIAS_L2;
import static io.jvmps.cluster.OneProcessFactorisation.FACTORS;
import static io.jvmps.cluster.OneProcessFactorisation.GENRE_L2;
import static io.jvmps.cluster.OneProcessFactorisation.L2;

/**
 * The model of {@link OneProcessFactorisation} written as a user would write it on the client's raw sparse API: each
 * step pulls the batch's distinct rows of all six tables (users, movies, genres, the two biases, the global mean as a
 * one-row table) in one call, computes the same gradients in plain Java, summed per distinct row, and pushes them
 * in one call; the servers apply their Adagrad. A worker trains every {@code workers}-th batch of each epoch's
 * shuffled order. Not thread-safe: one per worker thread.
 */
final class RawApiFactorisation {
    static final String USERS = "mf.users";
    static final String MOVIES = "mf.movies";
    static final String GENRES = "mf.genres";
    static final String USER_BIAS = "mf.user_bias";
    static final String MOVIE_BIAS = "mf.movie_bias";
    static final String MEAN = "mf.mean";
    private static final double MEAN_START = 3.5;

    private final OneProcessFactorisation.Ratings train;
    private final OneProcessFactorisation.Ratings test;
    /** Wall time of this worker's pulls, computation and pushes so far, in nanoseconds. */
    private long pullNanos;
    private long computeNanos;
    private long pushNanos;

    /** @param data the ratings, read once (its genre indices are the genre table's ids) */
    RawApiFactorisation(OneProcessFactorisation data) {
        this.train = data.train();
        this.test = data.test();
    }

    /** @return the six tables (Adagrad is the servers' optimizer): factors uniform in [-0.05, 0.05), the rest 0 */
    static List<SparseTableSpec> tables() {
        return List.of(new SparseTableSpec(USERS, FACTORS, 1, 0.05f, "ADAGRAD"),
                new SparseTableSpec(MOVIES, FACTORS, 2, 0.05f, "ADAGRAD"),
                new SparseTableSpec(GENRES, FACTORS, 3, 0f, "ADAGRAD"),
                new SparseTableSpec(USER_BIAS, 1, 4, 0f, "ADAGRAD"),
                new SparseTableSpec(MOVIE_BIAS, 1, 5, 0f, "ADAGRAD"),
                new SparseTableSpec(MEAN, 1, 6, 0f, "ADAGRAD"));
    }

    /** Trains this worker's batches of one epoch. */
    void epoch(SparseClient sparse, long seed, int rank, int workers) {
        int n = train.labels().length;
        int[] order = OneProcessFactorisation.shuffled(n, seed);
        int batch = 0;
        for (int from = 0; from < n; from += BATCH, batch++) {
            if (batch % workers == rank) {
                step(sparse, order, from, Math.min(n, from + BATCH), batch);
            }
        }
    }

    /** The rows of one batch: distinct ids per table and where each rating's rows are. */
    private record Batch(DistinctIds users, DistinctIds movies, DistinctIds genres, int[] genreStart, float[] u,
                         float[] m, float[] g, float[] ub, float[] mb, float[] mean) {
        static Batch of(OneProcessFactorisation.Ratings data, int[] order, int from, int to) {
            int n = to - from;
            long[] users = new long[n];
            long[] movies = new long[n];
            int[] genreStart = new int[n + 1];
            for (int t = 0; t < n; t++) {
                int i = order[from + t];
                users[t] = data.users()[i];
                movies[t] = data.movies()[i];
                genreStart[t + 1] = genreStart[t] + data.genres()[i].length;
            }
            long[] genres = new long[genreStart[n]];
            for (int t = 0; t < n; t++) {
                int[] g = data.genres()[order[from + t]];
                for (int j = 0; j < g.length; j++) {
                    genres[genreStart[t] + j] = g[j];
                }
            }
            DistinctIds du = DistinctIds.of(users);
            DistinctIds dm = DistinctIds.of(movies);
            DistinctIds dg = DistinctIds.of(genres);
            return new Batch(du, dm, dg, genreStart, new float[du.ids().length * FACTORS],
                    new float[dm.ids().length * FACTORS], new float[dg.ids().length * FACTORS],
                    new float[du.ids().length], new float[dm.ids().length], new float[1]);
        }

        /** @return the tables' rows of this batch over {@code u .. mean} (pull) or over gradients shaped alike */
        List<SparseClient.Rows> rows(float[] u, float[] m, float[] g, float[] ub, float[] mb, float[] mean) {
            List<SparseClient.Rows> out = new ArrayList<>(List.of(new SparseClient.Rows(USERS, FACTORS, users.ids(), u),
                    new SparseClient.Rows(MOVIES, FACTORS, movies.ids(), m),
                    new SparseClient.Rows(USER_BIAS, 1, users.ids(), ub),
                    new SparseClient.Rows(MOVIE_BIAS, 1, movies.ids(), mb),
                    new SparseClient.Rows(MEAN, 1, new long[] {0}, mean)));
            if (genres.ids().length > 0) {
                out.add(new SparseClient.Rows(GENRES, FACTORS, genres.ids(), g));
            }
            return out;
        }

        void pull(SparseClient sparse) {
            sparse.pull(rows(u, m, g, ub, mb, mean));
        }

        /** @return rating {@code t}'s prediction; {@code item} receives its movie's factors plus its genres' mean */
        double predict(int t, double[] item) {
            int ui = users.indexOf()[t];
            int mi = movies.indexOf()[t];
            int count = genreStart[t + 1] - genreStart[t];
            double prediction = MEAN_START + mean[0] + ub[ui] + mb[mi];
            for (int k = 0; k < FACTORS; k++) {
                double genreMean = 0;
                for (int j = genreStart[t]; j < genreStart[t + 1]; j++) {
                    genreMean += g[genres.indexOf()[j] * FACTORS + k];
                }
                item[k] = m[mi * FACTORS + k] + (count == 0 ? 0 : genreMean / count);
                prediction += u[ui * FACTORS + k] * item[k];
            }
            return prediction;
        }
    }

    private void step(SparseClient sparse, int[] order, int from, int to, long step) {
        long started = System.nanoTime();
        Batch b = Batch.of(train, order, from, to);
        b.pull(sparse);
        long pulled = System.nanoTime();
        float[] gu = new float[b.u().length];
        float[] gm = new float[b.m().length];
        float[] gg = new float[b.g().length];
        float[] gub = new float[b.ub().length];
        float[] gmb = new float[b.mb().length];
        float[] gmean = new float[1];
        double c = 2.0 / (to - from);
        double[] item = new double[FACTORS];
        for (int t = 0; t < to - from; t++) {
            double error = b.predict(t, item) - train.labels()[order[from + t]];
            int ui = b.users().indexOf()[t];
            int mi = b.movies().indexOf()[t];
            int count = b.genreStart()[t + 1] - b.genreStart()[t];
            for (int k = 0; k < FACTORS; k++) {
                double p = b.u()[ui * FACTORS + k];
                gu[ui * FACTORS + k] += (float) (c * (error * item[k] + L2 * p));
                gm[mi * FACTORS + k] += (float) (c * (error * p + L2 * b.m()[mi * FACTORS + k]));
                for (int j = b.genreStart()[t]; j < b.genreStart()[t + 1]; j++) {
                    int gi = b.genres().indexOf()[j];
                    gg[gi * FACTORS + k] += (float) (c * (error * p / count + GENRE_L2 * b.g()[gi * FACTORS + k]));
                }
            }
            gub[ui] += (float) (c * (error + BIAS_L2 * b.ub()[ui]));
            gmb[mi] += (float) (c * (error + BIAS_L2 * b.mb()[mi]));
            gmean[0] += (float) (c * error);
        }
        long computed = System.nanoTime();
        sparse.push(step, UpdateKind.GRADIENT, b.rows(gu, gm, gg, gub, gmb, gmean));
        pullNanos += pulled - started;
        computeNanos += computed - pulled;
        pushNanos += System.nanoTime() - computed;
    }

    /** @return this worker's seconds of pulls, computation and pushes so far */
    double[] phaseSeconds() {
        return new double[] {pullNanos / 1e9, computeNanos / 1e9, pushNanos / 1e9};
    }

    /** @return the test ratings' root mean squared error, from the servers' rows */
    double testRmse(SparseClient sparse) {
        int n = test.labels().length;
        int[] order = java.util.stream.IntStream.range(0, n).toArray();
        double squared = 0;
        double[] item = new double[FACTORS];
        for (int from = 0; from < n; from += 4096) {
            int to = Math.min(n, from + 4096);
            Batch b = Batch.of(test, order, from, to);
            b.pull(sparse);
            for (int t = 0; t < to - from; t++) {
                double error = b.predict(t, item) - test.labels()[from + t];
                squared += error * error;
            }
        }
        return Math.sqrt(squared / n);
    }
}

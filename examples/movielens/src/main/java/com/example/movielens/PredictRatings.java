package com.example.movielens;

import io.jvmps.client.dataset.LabeledData;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Scores the test ratings with a model {@link MovieLensTraining} saved, without a cluster: {@code SameDiff.load}
 * reads the graph (every bounded table is a variable in it), the hashed genre table comes from its two NumPy files
 * ({@code genreFactors.ids.npy}, int64 ids ascending, and {@code genreFactors.rows.npy}, float32 a row each), and
 * each genre id is fed as its row's position among the ids. The test file is read with the library's CSV reader,
 * whose hashing of the genre names the trained ids came from.
 *
 * <pre>
 * java -cp ... com.example.movielens.PredictRatings --model=DIR|FILE --data=DIR
 * </pre>
 *
 * {@code --model} is the folder {@link MovieLensTraining} saved {@code ratings.sd} in, or the saved graph itself (the
 * stock worker writes {@code model.sd}), the genre table's files beside it.
 *
 * It prints {@code PREDICTED rmse=<r> mae=<m> n=<ratings>}; it exits with 1 on any error.
 */
public final class PredictRatings {
    private PredictRatings() {
    }

    public static void main(String[] args) {
        Map<String, String> opts = MovieLensTraining.parse(args);
        Path model = Path.of(MovieLensTraining.require(opts, "model"));
        Path data = Path.of(MovieLensTraining.require(opts, "data"));
        try {
            var test = MovieLensTraining.ratings(data, "ratings-test.csv");
            LabeledData rows = test.rows(0, test.size());
            INDArray error = predict(model, rows).castTo(DataType.DOUBLE).sub(rows.labels().castTo(DataType.DOUBLE));
            double n = error.length();
            System.out.println(String.format(Locale.ROOT, "PREDICTED rmse=%.6f mae=%.6f n=%d",
                    Math.sqrt(error.mul(error).sumNumber().doubleValue() / n),
                    org.nd4j.linalg.ops.transforms.Transforms.abs(error).sumNumber().doubleValue() / n, (long) n));
        } catch (RuntimeException e) {
            System.err.println("prediction failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * @param model the folder with {@code ratings.sd} and the genre table's files, or the graph's file
     * @param rows  ratings with their ids ({@code userId}, {@code movieId}, {@code genres}, {@code genres_mask})
     * @return the predicted ratings {@code [n, 1]}
     */
    static INDArray predict(Path model, LabeledData rows) {
        Path file = java.nio.file.Files.isDirectory(model) ? model.resolve("ratings.sd") : model;
        model = file.toAbsolutePath().getParent();
        SameDiff sd = SameDiff.load(file.toFile(), false);
        long[] genreIds = Nd4j.createFromNpyFile(model.resolve("genreFactors.ids.npy").toFile()).toLongVector();
        sd.getVariable("genreFactors").setArray(Nd4j.createFromNpyFile(model.resolve("genreFactors.rows.npy").toFile()));
        INDArray genres = rows.ids().get("genres");
        INDArray mask = rows.ids().get("genres_mask");
        INDArray positions = Nd4j.zeros(DataType.INT64, genres.shape());
        for (int i = 0; i < genres.rows(); i++) {
            for (int j = 0; j < genres.columns(); j++) {
                if (mask.getFloat(i, j) == 0f) {
                    continue; // padding: any row, the mask leaves it out
                }
                int at = Arrays.binarySearch(genreIds, genres.getLong(i, j));
                if (at < 0) {
                    throw new IllegalArgumentException("rating " + i + " has a genre the model never trained (id "
                            + genres.getLong(i, j) + ")");
                }
                positions.putScalar(new long[] {i, j}, at);
            }
        }
        return sd.output(Map.of("userId", rows.ids().get("userId"), "movieId", rows.ids().get("movieId"),
                "genres", positions, "genres_mask", mask), "prediction").get("prediction");
    }
}

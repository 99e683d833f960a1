package io.jvmps.worker.predict;

import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.worker.export.ExportManifest;
import io.jvmps.worker.export.ModelExporter;
import io.jvmps.client.train.GraphNames;
import io.jvmps.worker.model.SoftmaxRegression;
import io.jvmps.client.train.StepResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** An exported model, read back by {@code predict} with SameDiff alone. */
class PredictCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void predictsTheAccuracyTheExportMeasuredAndWritesOneLinePerExample() throws Exception {
        Path train = blobs(dir.resolve("train.csv"), 300, 1);
        Path test = blobs(dir.resolve("test.csv"), 120, 2);
        CsvFormat format = CsvFormat.of("label", true, ",");
        CsvFile trainFile = CsvFile.open(train, format, 0);
        LabeledData trainData = trainFile.rows(0, trainFile.size());
        SoftmaxRegression model = new SoftmaxRegression(3, 3);
        for (int step = 0; step < 40; step++) {
            StepResult result = model.gradients(trainData.features(), trainData.labels());
            result.gradients().forEach((name, g) -> model.setParam(name, model.param(name).sub(g.mul(0.5))));
        }
        Path export = dir.resolve("export");
        ExportManifest written = new ModelExporter(export, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC)).export(model,
                CsvFile.open(test, format, 3), 50, new ExportManifest(null, null, "SOFTMAX", GraphNames.DEFAULT, 0, 0,
                        "CSV", "label", true, ",", "SYNC", 2, 2, 40, 0, 0, Double.NaN, null));
        assertThat(written.testExamples()).isEqualTo(120);
        assertThat(written.testAccuracy()).isGreaterThan(0.8);
        assertThat(ModelExporter.readManifest(export)).isEqualTo(written);

        Path predictions = dir.resolve("predictions.csv");
        int code = run("--model=" + export, "--data-file=" + test, "--batch-size=50", "--output=" + predictions);

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains(String.format("accuracy: %.4f (%d/120)", written.testAccuracy(),
                written.testCorrect()));
        List<String> lines = Files.readAllLines(predictions);
        assertThat(lines).hasSize(121).first().isEqualTo("index,predicted,label");
        long correct = lines.stream().skip(1).map(l -> l.split(",")).filter(c -> c[1].equals(c[2])).count();
        assertThat(correct).isEqualTo(written.testCorrect());
    }

    /** A bare model file (no model.json): LibSVM rows are spread to the graph's input width, not the file's largest index. */
    @Test
    void aLibSvmFileIsReadAtTheWidthOfTheModelsInput() throws Exception {
        SoftmaxRegression model = new SoftmaxRegression(6, 2);
        model.setParam("W", org.nd4j.linalg.factory.Nd4j.create(new float[]{1, -1, -1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                new long[]{6, 2}, 'c'));
        Path file = dir.resolve("bare.sd");
        model.save(file);
        Path test = Files.writeString(dir.resolve("test.svm"), "-1 1:2\n+1 2:3\n-1 1:1 2:0.5\n+1 2:1 3:1\n");
        int code = run("--model=" + file, "--data=LIBSVM", "--data-file=" + test);
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("accuracy: 1.0000 (4/4)");
    }

    /**
     * A graph with tables as the library's trainer saves it: a bounded table inside the file, a hashed one's rows
     * beside it; its placeholders are fed by the CSV's id columns of the same names.
     */
    private Path tableModel(boolean clicks) throws Exception {
        org.nd4j.autodiff.samediff.SameDiff sd = org.nd4j.autodiff.samediff.SameDiff.create();
        var user = sd.placeHolder("user", org.nd4j.linalg.api.buffer.DataType.INT64, -1);
        var tag = sd.placeHolder("tag", org.nd4j.linalg.api.buffer.DataType.INT64, -1);
        var userBias = sd.var("userBias", org.nd4j.linalg.factory.Nd4j.createFromArray(
                new float[][] {{0f}, {1f}, {2f}}));
        var tagBias = sd.var("tagBias", org.nd4j.linalg.factory.Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT,
                4, 1));
        var sum = sd.gather(userBias, user, 0).add(sd.gather(tagBias, tag, 0));
        (clicks ? sd.nn().sigmoid(sum) : sum).rename("prediction");
        Path model = Files.createDirectories(dir.resolve(clicks ? "clicks" : "ratings")).resolve("model.sd");
        sd.save(model.toFile(), false);
        long red = io.jvmps.client.dataset.CsvIds.hash("tag", "red");
        long blue = io.jvmps.client.dataset.CsvIds.hash("tag", "blue");
        long[] ids = red < blue ? new long[] {red, blue} : new long[] {blue, red};
        float[][] rows = red < blue ? new float[][] {{0.5f}, {-3f}} : new float[][] {{-3f}, {0.5f}};
        org.nd4j.linalg.factory.Nd4j.writeAsNumpy(org.nd4j.linalg.factory.Nd4j.createFromArray(ids),
                model.resolveSibling("tagBias.ids.npy").toFile());
        org.nd4j.linalg.factory.Nd4j.writeAsNumpy(org.nd4j.linalg.factory.Nd4j.createFromArray(rows),
                model.resolveSibling("tagBias.rows.npy").toFile());
        return model;
    }

    @Test
    void aRegressionGraphWithTablesIsScoredByRmseFromItsIdColumns() throws Exception {
        Path model = tableModel(false);
        // predictions: user + red (0.5) or blue (-3); green was never trained and reads a zero row
        Path test = Files.writeString(dir.resolve("ratings.csv"), "user,tag,y\n1,red,1.5\n2,blue,0\n0,green,1\n");
        int code = run("--model=" + model, "--data=CSV", "--data-file=" + test, "--csv.label=y", "--task=REGRESSION",
                "--csv.columns=user:ID,tag:HASHED", "--prediction=prediction", "--output=" + dir.resolve("out.csv"));
        assertThat(code).as(err.toString()).isZero();
        // errors: 0, -1, -1
        assertThat(out.toString()).contains(String.format(java.util.Locale.ROOT, "rmse: %.4f, mae: %.4f (3 targets)",
                Math.sqrt(2.0 / 3), 2.0 / 3));
        assertThat(Files.readAllLines(dir.resolve("out.csv"))).containsExactly("index,predicted,label", "0,1.5,1.5",
                "1,-1.0,0.0", "2,0.0,1.0");
    }

    @Test
    void aClickGraphIsScoredByAucAndLogLoss() throws Exception {
        Path model = tableModel(true);
        // p = sigmoid(user + tag): 0.818 (click), 0.269 (no click), 0.5 (click)
        Path test = Files.writeString(dir.resolve("clicks.csv"), "user,tag,y\n1,red,1\n2,blue,0\n0,green,1\n");
        int code = run("--model=" + model, "--data=CSV", "--data-file=" + test, "--csv.label=y", "--task=BINARY",
                "--csv.columns=user:ID,tag:HASHED", "--prediction=prediction");
        assertThat(code).as(err.toString()).isZero();
        double logLoss = -(Math.log(1 / (1 + Math.exp(-1.5))) + Math.log(1 - 1 / (1 + Math.exp(1))) + Math.log(0.5)) / 3;
        assertThat(out.toString()).contains(String.format(java.util.Locale.ROOT,
                "auc: 1.0000, log loss: %.4f, accuracy: 1.0000 (3 examples)", logLoss));
        err.reset();
        Path bad = Files.writeString(dir.resolve("bad.csv"), "user,tag,y\n1,red,2\n");
        assertThat(run("--model=" + model, "--data=CSV", "--data-file=" + bad, "--csv.label=y", "--task=BINARY",
                "--csv.columns=user:ID,tag:HASHED", "--prediction=prediction")).isEqualTo(2);
        assertThat(err.toString()).contains("line 2");
        err.reset();
        assertThat(run("--model=" + model, "--data=CSV", "--data-file=" + test, "--task=RANKING",
                "--csv.columns=user:ID,tag:HASHED", "--prediction=prediction")).isEqualTo(2);
        assertThat(err.toString()).contains("--task=RANKING is not one of CLASSIFICATION, REGRESSION, BINARY");
        err.reset();
        assertThat(run("--model=" + model, "--data=CSV", "--data-file=" + test, "--task=BINARY",
                "--csv.columns=user:ID,tag", "--prediction=prediction")).isEqualTo(2);
        assertThat(err.toString()).contains("--csv.columns: column entry 'tag' is not NAME:KIND");
    }

    @Test
    void badArgumentsAndInputGiveAMessageAndCodeTwo() throws Exception {
        assertThat(run("--model")).isEqualTo(2);
        assertThat(err.toString()).contains("expected --name=value").contains("usage:");
        err.reset();
        assertThat(run("--colour=red")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown option --colour");
        err.reset();
        assertThat(run("--model=" + dir.resolve("none.sd"), "--data=CSV")).isEqualTo(2);
        assertThat(err.toString()).contains("no model file at");
        err.reset();
        Path model = dir.resolve("m.sd");
        new SoftmaxRegression(3, 3).save(model);
        assertThat(run("--model=" + model, "--data=CSV", "--data-file=" + dir.resolve("absent.csv"))).isEqualTo(2);
        assertThat(err.toString()).contains("no CSV file at");
        err.reset();
        assertThat(run("--model=" + model, "--prediction=logits", "--data=CSV")).isEqualTo(2);
        assertThat(err.toString()).contains("has no variable 'logits'").contains("probabilities");
        assertThat(out.toString()).isEmpty();
    }

    private int run(String... args) {
        return PredictCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** Three separable clusters in 3 dimensions, label column first. */
    private static Path blobs(Path file, int rows, long seed) throws Exception {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder("label,a,b,c\n");
        for (int i = 0; i < rows; i++) {
            int label = i % 3;
            text.append(label);
            for (int d = 0; d < 3; d++) {
                text.append(',').append((d == label ? 2.0 : 0.0) + random.nextGaussian() * 0.5);
            }
            text.append('\n');
        }
        return Files.writeString(file, text);
    }
}

package io.jvmps.worker.predict;

import io.jvmps.client.train.FreshSessionArrays;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.client.dataset.NpyFile;
import io.jvmps.worker.export.ExportManifest;
import io.jvmps.worker.export.ModelExporter;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code predict}: loads an exported model with SameDiff's own {@code SameDiff.load}, or a DL4J network
 * with {@code MultiLayerNetwork.load} (nothing of jvm-ps's model classes), classifies a data set with it, prints the accuracy and optionally writes
 * one prediction per example. The graph's variable names, the classes and the data format default to
 * what the export's {@code model.json} says. Arguments are {@code --name=value}; see {@link #USAGE}.
 * Stateless; one run per call.
 */
public final class PredictCommand {
    /** The command's name, the first argument of the worker's jar. */
    public static final String NAME = "predict";
    static final String USAGE = """
            usage: java -jar worker-service-<version>-exec.jar predict --model=PATH [options]
              --model=PATH           an export folder (model.sd or model.zip + model.json), a SameDiff model file
                                     or a DL4J network zip
              --data=MNIST|CSV|NPY|LIBSVM|IMAGES  the data format (default: the export's)
              --data-path=DIR        MNIST: the folder of the IDX files (default data/mnist); the test split is read
              --data-file=FILE       CSV, LIBSVM: the file to classify; NPY: the features .npy
              --labels-file=FILE     NPY: the labels .npy
              --data-dir=DIR         IMAGES: the folder of class folders to classify (classes and image shape: the
                                     export's, else the folder's own and its first image's)
              --csv.label=COLUMN     CSV: label column, an index from 0 or a header name (default: the export's, else 0)
              --csv.header=BOOL      CSV: whether the first line names the columns (default: the export's, else true)
              --csv.delimiter=C      CSV: the separator (default: the export's, else ,)
              --csv.columns=NAME:KIND,...  CSV: what columns hold: NUMBER, ID, HASHED, IDS, HASHED_IDS or SKIP (default
                                     NUMBER); ids go to the graph's placeholders of the same names
              --csv.value-separator=C  CSV: the separator inside an IDS or HASHED_IDS cell (default |)
              --libsvm.ids=NAME      LIBSVM: feed each row's features to the graph's table lookup NAME (ids, with
                                     NAME_values and NAME_mask) instead of spreading them into dense rows
              --task=CLASSIFICATION|REGRESSION|BINARY  what the model predicts: classes (accuracy), real targets (RMSE,
                                     MAE) or click probabilities (AUC, log loss); a CSV label is read to match
              --input=NAME           the feature placeholder (default: the export's, else input)
              --prediction=NAME      the class scores (default: the export's, else probabilities)
              --batch-size=N         examples per forward pass (default 500)
              --output=FILE          also write one line per example: index,predicted,label
            """;
    private static final Set<String> OPTIONS = Set.of("model", "data", "data-path", "data-file", "labels-file", "data-dir", "csv.label",
            "csv.header", "csv.delimiter", "csv.columns", "csv.value-separator", "libsvm.ids", "task", "input", "prediction",
            "batch-size", "output");

    private PredictCommand() {
    }

    /**
     * @param args {@code --name=value} options
     * @param out  where the result goes
     * @param err  where errors and the usage go
     * @return the exit code: 0 done, 2 bad arguments or input
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Map<String, String> options = parse(args);
            if (options.containsKey("help")) {
                out.print(USAGE);
                return 0;
            }
            Prediction result = predict(options);
            out.printf(Locale.ROOT, "model: %s%n", result.modelFile().toAbsolutePath());
            out.println(result.summary());
            return 0;
        } catch (IllegalArgumentException | PsException | UncheckedIOException e) {
            err.println("predict: " + e.getMessage());
            return 2;
        }
    }

    /**
     * @param modelFile the model that predicted
     * @param correct   examples whose label is the arg-max of the prediction (a click model's: right at 0.5)
     * @param examples  examples scored
     * @param summary   the result line ({@code accuracy: ...}, {@code rmse: ...} or {@code auc: ...})
     */
    record Prediction(Path modelFile, long correct, long examples, String summary) {
        double accuracy() {
            return examples == 0 ? Double.NaN : (double) correct / examples;
        }
    }

    static Prediction predict(Map<String, String> options) {
        Path model = Path.of(require(options, "model"));
        // an export folder, or a model file whose folder may hold the manifest
        Path folder = Files.isDirectory(model) ? model : model.toAbsolutePath().getParent();
        ExportManifest manifest = Files.isRegularFile(folder.resolve(ExportManifest.MANIFEST_FILE))
                ? ModelExporter.readManifest(folder) : null;
        Path modelFile = !Files.isDirectory(model) ? model
                : model.resolve(manifest != null && manifest.modelFile() != null ? manifest.modelFile()
                : ExportManifest.MODEL_FILE);
        if (!Files.isRegularFile(modelFile)) {
            throw new IllegalArgumentException("no model file at " + modelFile.toAbsolutePath());
        }
        PredictionScores.Task task = task(options);
        Classifier classifier = io.jvmps.worker.model.Dl4jModel.isDl4jFile(modelFile) ? dl4j(modelFile)
                : sameDiff(modelFile, options, manifest);
        Examples data = data(options, manifest, classifier.inputWidth(), task);
        int batchSize = Integer.parseInt(option(options, "batch-size", null, "500"));
        if (batchSize < 1) {
            throw new IllegalArgumentException("--batch-size must be >= 1, got " + batchSize);
        }
        String output = options.get("output");
        PredictionScores scores = new PredictionScores(task);
        try (Writer writer = output == null ? Writer.nullWriter() : Files.newBufferedWriter(Path.of(output))) {
            writer.write("index,predicted,label\n");
            for (int from = 0; from < data.size(); from += batchSize) {
                LabeledData batch = data.rows(from, Math.min(data.size(), from + batchSize));
                String[] lines = scores.add(classifier.scores(batch), batch.labels(), from);
                for (int i = 0; i < lines.length; i++) {
                    writer.write((from + i) + "," + lines[i] + "\n");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + output, e);
        }
        return new Prediction(modelFile, scores.correct(), scores.examples(), scores.summary());
    }

    private static PredictionScores.Task task(Map<String, String> options) {
        String task = option(options, "task", null, "CLASSIFICATION").toUpperCase(Locale.ROOT);
        try {
            return PredictionScores.Task.valueOf(task);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--task=" + task + " is not one of CLASSIFICATION, REGRESSION, BINARY");
        }
    }

    /** A loaded model: its output for a batch (class scores {@code [n, k]}, or one value per example). */
    private interface Classifier {
        INDArray scores(LabeledData batch);

        /** @return features per example the model takes, 0 if it does not say */
        int inputWidth();
    }

    /** A SameDiff model file, read with {@code SameDiff.load} alone. */
    private static Classifier sameDiff(Path modelFile, Map<String, String> options, ExportManifest manifest) {
        SameDiff sd;
        try {
            sd = SameDiff.load(modelFile.toFile(), false);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(modelFile + " is not a SameDiff model file (" + e.getMessage() + ")");
        }
        String input = option(options, "input", manifest == null ? null : manifest.graph().input(), "input");
        String prediction = option(options, "prediction", manifest == null ? null : manifest.graph().prediction(),
                "probabilities");
        // a graph fed only by id columns (a recommendation model) may have no feature input
        boolean featureInput = sd.hasVariable(input) && sd.getVariable(input).isPlaceHolder();
        boolean idsOnly = !options.containsKey("input")
                && (options.get("csv.columns") != null || options.get("libsvm.ids") != null);
        for (String name : idsOnly ? new String[]{prediction} : new String[]{input, prediction}) {
            if (!sd.hasVariable(name)) {
                throw new IllegalArgumentException(modelFile + " has no variable '" + name + "'; its variables: "
                        + sd.variables().stream().map(v -> v.name()).toList());
            }
        }
        long[] inputShape = featureInput ? sd.getVariable(input).placeholderShape() : null;
        int inputWidth = inputShape != null && inputShape.length == 2 && inputShape[1] > 0 ? (int) inputShape[1] : 0;
        // a graph with embedding tables: the hashed ones' rows are files beside it, its ids placeholders are named
        // like the CSV's id columns
        io.jvmps.client.train.SavedTables tables = io.jvmps.client.train.SavedTables.load(sd,
                modelFile.toAbsolutePath().getParent());
        return new Classifier() {
            @Override
            public INDArray scores(LabeledData batch) {
                io.jvmps.client.train.FreshSessionArrays.apply(sd);
                Map<String, INDArray> inputs = new java.util.HashMap<>();
                tables.positions(batch.ids()).forEach((name, ids) -> {
                    if (sd.hasVariable(name) && sd.getVariable(name).isPlaceHolder()) {
                        inputs.put(name, ids);
                    }
                });
                if (featureInput && batch.features().size(1) > 0) {
                    inputs.put(input, batch.features());
                }
                return sd.output(inputs, prediction).get(prediction);
            }

            @Override
            public int inputWidth() {
                return inputWidth;
            }
        };
    }

    /** A DL4J network zip, read with {@code MultiLayerNetwork.load} (or {@code ComputationGraph.load}) alone. */
    private static Classifier dl4j(Path modelFile) {
        io.jvmps.worker.model.Dl4jModel.Network net;
        try {
            net = io.jvmps.worker.model.Dl4jModel.read(modelFile);
        } catch (PsException e) {
            throw new IllegalArgumentException(e.detail());
        }
        return new Classifier() {
            @Override
            public INDArray scores(LabeledData batch) {
                return net.output(batch.features());
            }

            @Override
            public int inputWidth() {
                return 0;
            }
        };
    }

    /** @param inputWidth the graph's features per example, 0 if it does not say */
    private static Examples data(Map<String, String> options, ExportManifest manifest, int inputWidth,
                                 PredictionScores.Task task) {
        String format = option(options, "data", manifest == null ? null : manifest.data(), null);
        if (format == null) {
            throw new IllegalArgumentException("--data is missing (MNIST, CSV, NPY, LIBSVM or IMAGES) and the model has no model.json");
        }
        switch (format.toUpperCase(Locale.ROOT)) {
            case "MNIST" -> {
                Path dir = Path.of(option(options, "data-path", null, "data/mnist"));
                MnistDataset.requirePresent(dir);
                return MnistDataset.load(dir, MnistSplit.TEST, 0);
            }
            case "CSV" -> {
                CsvFormat csv = CsvFormat.of(
                        option(options, "csv.label", manifest == null ? null : manifest.csvLabel(), "0"),
                        Boolean.parseBoolean(option(options, "csv.header",
                                manifest == null || manifest.csvHeader() == null ? null
                                        : manifest.csvHeader().toString(), "true")),
                        option(options, "csv.delimiter", manifest == null ? null : manifest.csvDelimiter(), ","));
                csv = CsvColumnOptions.apply(csv, options.get("csv.columns"), options.get("csv.value-separator"), task);
                int classes = manifest == null ? 0 : manifest.numClasses();
                return CsvFile.open(Path.of(require(options, "data-file")), csv, classes);
            }
            case "LIBSVM" -> {
                if (options.get("libsvm.ids") != null) {
                    return io.jvmps.client.dataset.LibSvmIds.of(io.jvmps.client.dataset.LibSvmFile.open(
                            Path.of(require(options, "data-file")), 0, 0), options.get("libsvm.ids"),
                            switch (task) {
                                case BINARY -> io.jvmps.client.dataset.LabelKind.BINARY;
                                case REGRESSION -> io.jvmps.client.dataset.LabelKind.REAL; // refused: classes only
                                default -> io.jvmps.client.dataset.LabelKind.CLASS;
                            });
                }
                // rows as wide as the model's input: a test file need not use the largest feature index
                return io.jvmps.client.dataset.LibSvmFile.open(Path.of(require(options, "data-file")),
                        manifest != null && manifest.inputSize() > 0 ? manifest.inputSize() : inputWidth,
                        manifest == null ? 0 : manifest.numClasses());
            }
            case "NPY" -> {
                return NpyFile.open(Path.of(require(options, "data-file")), Path.of(require(options, "labels-file")),
                        manifest == null ? 0 : manifest.numClasses());
            }
            case "IMAGES" -> {
                Path dir = Path.of(require(options, "data-dir"));
                ExportManifest.Image image = manifest == null ? null : manifest.image();
                return image == null ? io.jvmps.client.dataset.ImageFolder.open(dir,
                        io.jvmps.client.dataset.ImageLayout.fromFirstImage())
                        : io.jvmps.client.dataset.ImageFolder.open(dir, new io.jvmps.client.dataset.ImageLayout(
                                image.height(), image.width(), image.channels()), image.classes());
            }
            default -> throw new IllegalArgumentException("--data=" + format
                    + " is not one of MNIST, CSV, NPY, LIBSVM, IMAGES");
        }
    }

    private static Map<String, String> parse(String[] args) {
        return io.jvmps.worker.command.CommandOptions.parse(args, OPTIONS, "\n" + USAGE);
    }

    private static String require(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is missing\n" + USAGE);
        }
        return value;
    }

    private static String option(Map<String, String> options, String name, String fromManifest, String fallback) {
        String value = options.get(name);
        return value != null ? value : fromManifest != null ? fromManifest : fallback;
    }
}

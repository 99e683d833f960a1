package io.jvmps.worker.export;

import io.jvmps.client.train.GraphNames;

/**
 * What {@code model.json} says about an exported model ({@code model.sd} beside it): how to feed it,
 * where it came from and how well it did. Immutable; written and read as JSON.
 *
 * @param format        {@value #FORMAT} (the model file is SameDiff's own format) or {@code dl4j} (a DL4J
 *                      network zip)
 * @param modelFile     the model file's name, in the same folder ({@value #MODEL_FILE}, or {@code model.zip})
 * @param model         the job's {@code ps.worker.model}
 * @param graph         the graph's input, label, loss and prediction variables
 * @param inputSize     features per example the input placeholder takes
 * @param numClasses    classes (the width of the label placeholder and of the prediction)
 * @param data          the job's data format ({@code ps.worker.dataset.format}: MNIST, CSV, SYNTHETIC)
 * @param csvLabel      for CSV: the label column ({@code ps.worker.dataset.csv.label}); else null
 * @param csvHeader     for CSV: whether files have a header line
 * @param csvDelimiter  for CSV: the column separator
 * @param mode          the consistency mode the job trained in
 * @param workers       workers of the job
 * @param servers       servers of the job
 * @param steps         training steps of the exporting worker (every worker runs as many in SYNC)
 * @param testCorrect   test examples the exported values classify correctly
 * @param testExamples  test examples evaluated (the whole test set)
 * @param testAccuracy  {@code testCorrect / testExamples}
 * @param writtenAt     when the file was written, ISO-8601 UTC
 * @param image         for IMAGES: the shape the images were brought to and the class names by class number;
 *                      else null
 */
public record ExportManifest(String format, String modelFile, String model, GraphNames graph, int inputSize,
                             int numClasses, String data, String csvLabel, Boolean csvHeader, String csvDelimiter,
                             String mode, int workers, int servers, long steps, long testCorrect, long testExamples,
                             double testAccuracy, String writtenAt, Image image) {
    /**
     * How an image data set's pictures became rows: resized to {@code height x width} in {@code channels} (1 grey,
     * 3 RGB), channels first, scaled to [0, 1]; class {@code i} is the folder {@code classes[i]}.
     */
    public record Image(int height, int width, int channels, java.util.List<String> classes) {
    }

    /** A manifest of a job that read no images. */
    public ExportManifest(String format, String modelFile, String model, GraphNames graph, int inputSize,
                          int numClasses, String data, String csvLabel, Boolean csvHeader, String csvDelimiter,
                          String mode, int workers, int servers, long steps, long testCorrect, long testExamples,
                          double testAccuracy, String writtenAt) {
        this(format, modelFile, model, graph, inputSize, numClasses, data, csvLabel, csvHeader, csvDelimiter, mode,
                workers, servers, steps, testCorrect, testExamples, testAccuracy, writtenAt, null);
    }

    /** The value of {@link #format} for a SameDiff model. */
    public static final String FORMAT = "samediff";
    /** A SameDiff model file's name. */
    public static final String MODEL_FILE = "model.sd";
    /** The manifest's file name. */
    public static final String MANIFEST_FILE = "model.json";
}

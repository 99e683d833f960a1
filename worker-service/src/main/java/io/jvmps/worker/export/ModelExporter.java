package io.jvmps.worker.export;

import io.jvmps.client.dataset.Examples;
import io.jvmps.worker.model.SameDiffModel;
import io.jvmps.worker.model.TrainableModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Locale;

/**
 * Writes a trained model for use outside jvm-ps: {@code <dir>/model.sd}, the SameDiff graph with the
 * trained values (loadable with {@code SameDiff.load(file, false)}), or {@code <dir>/model.zip} for a DL4J
 * network ({@code MultiLayerNetwork.load(file, false)}), and {@code <dir>/model.json}, its
 * {@link ExportManifest}. The manifest's test accuracy is measured here, on the whole test set, with the
 * exported values. Each file is written beside and moved into place, the model first, so a reader that
 * finds the manifest finds its model. Not thread-safe.
 */
public final class ModelExporter {
    private static final Logger log = LoggerFactory.getLogger(ModelExporter.class);
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final Path dir;
    private final Clock clock;

    /**
     * @param dir   the export folder; created if missing
     * @param clock gives the manifest's time
     */
    public ModelExporter(Path dir, Clock clock) {
        this.dir = dir;
        this.clock = clock;
    }

    /**
     * @param model     the trained model, holding the values to export
     * @param test      the test set the manifest's accuracy is measured on
     * @param batchSize examples per forward pass of that evaluation
     * @param manifest  the manifest without the test result and time (filled in here)
     * @return the manifest as written
     * @throws UncheckedIOException when a file cannot be written
     */
    public ExportManifest export(TrainableModel model, Examples test, int batchSize, ExportManifest manifest) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the export folder " + dir.toAbsolutePath(), e);
        }
        long correct = test.size() == 0 ? 0 : model.evaluateCorrect(test, batchSize);
        ExportManifest written = new ExportManifest(model.fileFormat(), model.fileName(), manifest.model(),
                model instanceof SameDiffModel sd ? sd.graphNames() : manifest.graph(), model.inputSize(),
                model.numClasses(), manifest.data(), manifest.csvLabel(), manifest.csvHeader(), manifest.csvDelimiter(),
                manifest.mode(), manifest.workers(), manifest.servers(), manifest.steps(), correct, test.size(),
                test.size() == 0 ? Double.NaN : (double) correct / test.size(), clock.instant().toString(),
                test instanceof io.jvmps.client.dataset.ImageFolder images ? new ExportManifest.Image(
                        images.layout().height(), images.layout().width(), images.layout().channels(),
                        images.classes()) : manifest.image());
        model.save(dir.resolve(model.fileName()));
        Path json = dir.resolve(ExportManifest.MANIFEST_FILE);
        Path tmp = dir.resolve(ExportManifest.MANIFEST_FILE + ".tmp");
        try {
            Files.writeString(tmp, JSON.writeValueAsString(written));
            Files.move(tmp, json, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + json.toAbsolutePath(), e);
        }
        log.info(String.format(Locale.ROOT, "Exported the trained model to %s (test accuracy of the exported values "
                + "%.4f, %d/%d)", dir.resolve(model.fileName()).toAbsolutePath(), written.testAccuracy(),
                correct, test.size()));
        return written;
    }

    /**
     * @param dir an export folder
     * @return its manifest
     * @throws UncheckedIOException when it cannot be read or is not a manifest
     */
    public static ExportManifest readManifest(Path dir) {
        Path json = dir.resolve(ExportManifest.MANIFEST_FILE);
        try {
            return JSON.readValue(Files.readString(json), ExportManifest.class);
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException("cannot read the manifest " + json.toAbsolutePath() + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }
}

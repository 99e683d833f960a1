package io.jvmps.worker.train;

import io.jvmps.worker.train.loop.PushedGradients;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a worker's final parameters as NumPy {@code .npy} files, one per parameter. */
class ParameterExporter {
    private static final Logger log = LoggerFactory.getLogger(ParameterExporter.class);

    private final String outputDir;

    ParameterExporter(String outputDir) {
        this.outputDir = outputDir;
    }

    /** @return true when parameters are exported (an output directory is set) */
    boolean enabled() {
        return outputDir != null && !outputDir.isBlank();
    }

    /**
     * Writes {@code worker-<rank>/<name>.npy} for every parameter and, if recorded,
     * {@code worker-<rank>/pushed/<name>.npy}: the sum of the gradients this worker pushed.
     */
    void export(int rank, TrainableModel model, PushedGradients pushed) {
        if (!enabled()) {
            return;
        }
        Path dir = Path.of(outputDir, "worker-" + rank);
        try {
            Files.createDirectories(dir);
            for (ParamSpec spec : model.params()) {
                Nd4j.writeAsNumpy(model.param(spec.name()), dir.resolve(spec.name() + ".npy").toFile());
            }
            if (!pushed.specs().isEmpty()) {
                Files.createDirectories(dir.resolve("pushed"));
                for (int p = 0; p < pushed.specs().size(); p++) {
                    Nd4j.writeAsNumpy(pushed.sum(p), dir.resolve("pushed").resolve(pushed.specs().get(p).name() + ".npy")
                            .toFile());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write parameters to " + dir, e);
        }
        log.info("Wrote {} parameters to {}", model.params().size(), dir.toAbsolutePath());
    }
}

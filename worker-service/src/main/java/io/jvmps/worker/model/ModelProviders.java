package io.jvmps.worker.model;

import io.jvmps.client.train.GraphNames;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Resolves {@code ps.worker.model} to a {@link ModelProvider}, in this order: a built-in model
 * ({@link ModelType}, ignoring case), a provider found by {@link ServiceLoader} on the class path
 * whose name matches, then a path to a DL4J network zip ({@link Dl4jModel}) or a SameDiff model file
 * ({@link FileModel}), loaded once here so that a bad file stops start-up. Stateless.
 */
public final class ModelProviders {
    private ModelProviders() {
    }

    /**
     * @param model  the value of {@code ps.worker.model}
     * @param names  the graph's variable names, for a model file ({@code ps.worker.graph.*})
     * @param loader where to look for {@link ModelProvider} implementations
     * @return the provider
     * @throws PsException INVALID_ARGUMENT when the value names nothing (the message lists the built-in and
     *                     discovered names), or the model file is refused ({@link FileModel#load})
     */
    public static ModelProvider resolve(String model, GraphNames names, ClassLoader loader) {
        String wanted = model == null ? "" : model.trim();
        for (ModelType type : ModelType.values()) {
            if (type.name().equalsIgnoreCase(wanted)) {
                return type;
            }
        }
        List<String> discovered = new ArrayList<>();
        for (ModelProvider provider : ServiceLoader.load(ModelProvider.class, loader)) {
            if (provider.name().equalsIgnoreCase(wanted)) {
                return provider;
            }
            discovered.add(provider.name());
        }
        Path file = Path.of(wanted.isEmpty() ? "." : wanted);
        if (wanted.isEmpty() || !Files.isRegularFile(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model='" + wanted + "' is neither a built-in "
                    + "model " + Arrays.toString(ModelType.values()) + ", a ModelProvider on the class path "
                    + discovered + ", nor a model file (no file at " + file.toAbsolutePath() + ")");
        }
        if (Dl4jModel.isDl4jFile(file)) {
            return new Dl4jFileProvider(file, Dl4jModel.read(file));
        }
        return new FileModelProvider(file, names, FileModel.load(file, names));
    }

    /**
     * A DL4J network zip: the network read at start-up serves the first {@link #create} (checked against the
     * data's sizes there), later calls read the file again.
     */
    private static final class Dl4jFileProvider implements ModelProvider {
        private final Path file;
        private final List<io.jvmps.common.sharding.ParamSpec> params;
        private Dl4jModel.Network first;

        Dl4jFileProvider(Path file, Dl4jModel.Network first) {
            this.file = file;
            this.first = first;
            this.params = Dl4jModel.paramsOf(first);
        }

        @Override
        public String name() {
            return file.toString();
        }

        @Override
        public synchronized TrainableModel create(int inputSize, int numClasses) {
            Dl4jModel.Network net = first != null ? first : Dl4jModel.read(file);
            first = null;
            return Dl4jModel.of(net, file, inputSize, numClasses);
        }

        @Override
        public Placement check(Placement placement) {
            return placement.check("DL4J network " + file.getFileName(), params);
        }
    }

    /** A model file: the one loaded at start-up serves the first {@link #create}, later calls load it again. */
    private static final class FileModelProvider implements ModelProvider {
        private final Path file;
        private final GraphNames names;
        private FileModel first;

        FileModelProvider(Path file, GraphNames names, FileModel first) {
            this.file = file;
            this.names = names;
            this.first = first;
        }

        @Override
        public String name() {
            return file.toString();
        }

        @Override
        public synchronized TrainableModel create(int inputSize, int numClasses) {
            FileModel model = first != null ? first : FileModel.load(file, names);
            first = null;
            model.requireSizes(inputSize, numClasses);
            return model;
        }

        @Override
        public synchronized Placement check(Placement placement) {
            List<io.jvmps.common.sharding.ParamSpec> params = first != null ? first.params()
                    : FileModel.load(file, names).params();
            return placement.check("model file " + file.getFileName(), params);
        }
    }
}

package io.jvmps.worker.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The training and test data ({@code ps.worker.dataset.*}): its format and files, how much of it to use, and how it
 * is split among the workers. File paths are the worker's own (a container's, under compose).
 *
 * @param format the data's format
 * @param path folder holding the MNIST IDX files (plain or .gz)
 * @param trainFile training data file for the file formats (CSV, NPY, LIBSVM)
 * @param testFile test data file for the file formats
 * @param trainLabelsFile NPY: the training labels file (class numbers, one per row of train-file)
 * @param testLabelsFile NPY: the test labels file
 * @param numFeatures LIBSVM: features per example; 0: the largest feature index in the training file
 * @param numClasses classes in the data; 0: the largest label in the training file + 1
 * @param trainLimit use only the first N training samples (0 = all); for tests and quick runs
 * @param testLimit use only the first N test samples (0 = all)
 * @param sharding how the training data is split among workers: STATIC (each rank its fixed shard) or DYNAMIC (the
 *     scheduler hands out data partitions one at a time, so a worker that joins a running job beyond
 *     ps.cluster.worker-num shares the rest; ASYNC and SSP modes)
 * @param partitions DYNAMIC sharding: partitions each epoch is cut into (every worker of the job must use the same)
 * @param csv how CSV files are read
 * @param image the image folders and the shape images are brought to (IMAGES)
 */
public record DatasetProperties(
        @NotNull @DefaultValue("MNIST") DataFormat format,
        @NotBlank @DefaultValue("data/mnist") String path,
        @NotNull @DefaultValue("") String trainFile,
        @NotNull @DefaultValue("") String testFile,
        @NotNull @DefaultValue("") String trainLabelsFile,
        @NotNull @DefaultValue("") String testLabelsFile,
        @Min(0) @DefaultValue("0") int numFeatures,
        @Min(0) @DefaultValue("0") int numClasses,
        @Min(0) @DefaultValue("0") int trainLimit,
        @Min(0) @DefaultValue("0") int testLimit,
        @NotNull @DefaultValue("STATIC") DataSharding sharding,
        @Min(1) @DefaultValue("16") int partitions,
        @Valid @NestedConfigurationProperty @DefaultValue CsvProperties csv,
        @Valid @NestedConfigurationProperty @DefaultValue ImageProperties image) {
}

package io.jvmps.worker.config;

import io.jvmps.worker.model.PlacementMode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.util.List;

/**
 * How this worker trains ({@code ps.worker.*}): what (job, model, where its parameters live) at the top, and one
 * group per concern: the graph's variable names, the data set, the training schedule, the calls to the servers, the
 * outputs, the process's lifecycle and the CTR job. Immutable; names from before the grouping still bind, with a
 * warning ({@link RenamedWorkerProperties}).
 *
 * @param job what to train: CLASSIFICATION (a dense model on the data set), CTR (wide-and-deep on sparse tables) or
 *     SPARSE_LINEAR (softmax regression on LibSVM data as a sparse table)
 * @param model a built-in model (LENET5, SOFTMAX), a ModelProvider's name, or the path of a SameDiff model file
 * @param pluginsDir folder of plugin jars (e.g. a ModelProvider); a missing folder means none
 * @param placement parameter placement: ALL_PS (every parameter on the servers) or HYBRID (the parameters named in
 *     local-params stay on the workers and are averaged by an AllReduce among them)
 * @param localParams names of the worker-local parameters with placement=HYBRID, e.g. conv1_W,conv1_b
 * @param graph the variables of a model file's graph
 * @param dataset the training and test data
 * @param training epochs, batch size, seed and the other settings of the training loop
 * @param servers waiting for, calling and recovering the servers
 * @param output where the trained model and the final parameters are written
 * @param lifecycle exit and shutdown of the worker process
 * @param ctr the CTR job's data, model and embedding cache
 */
@Validated
@ConfigurationProperties("ps.worker")
public record WorkerProperties(
        @NotNull @DefaultValue("CLASSIFICATION") JobKind job,
        @NotBlank @DefaultValue("LENET5") String model,
        @NotBlank @DefaultValue("plugins") String pluginsDir,
        @NotNull @DefaultValue("ALL_PS") PlacementMode placement,
        @NotNull @DefaultValue List<String> localParams,
        @Valid @NestedConfigurationProperty @DefaultValue GraphProperties graph,
        @Valid @NestedConfigurationProperty @DefaultValue DatasetProperties dataset,
        @Valid @NestedConfigurationProperty @DefaultValue TrainingProperties training,
        @Valid @NestedConfigurationProperty @DefaultValue ServerCallProperties servers,
        @Valid @NestedConfigurationProperty @DefaultValue OutputProperties output,
        @Valid @NestedConfigurationProperty @DefaultValue LifecycleProperties lifecycle,
        @Valid @NestedConfigurationProperty @DefaultValue CtrProperties ctr) {

    public WorkerProperties {
        localParams = localParams == null ? List.of() : List.copyOf(localParams);
    }

    /**
     * @return whether the client library's trainer trains this job: a model file whose graph has embedding tables
     * or whose label is not a class (the other dense jobs still run the stock worker's own loop)
     */
    public boolean trainsWithLibrary() {
        return job == JobKind.CLASSIFICATION && graph != null && dataset != null
                && (!graph.tables().isEmpty() || dataset.csv().labelKind() != io.jvmps.client.dataset.LabelKind.CLASS);
    }

    /** @return whether the sharding fits the embedding cache: a leased schedule does not take one */
    @AssertTrue(message = "ps.worker.dataset.sharding=DYNAMIC does not take a model file's embedding cache "
            + "(ps.worker.graph.cache-rows): set one of them back to its default")
    public boolean isShardingCacheable() {
        return graph == null || dataset == null || graph.cacheRows() == 0
                || dataset.sharding() != DataSharding.DYNAMIC;
    }

    /** @return whether the job can read the data format: the SPARSE_LINEAR job reads LibSVM only */
    @AssertTrue(message = "ps.worker.job=SPARSE_LINEAR reads LibSVM files: set ps.worker.dataset.format=LIBSVM")
    public boolean isDataReadableByJob() {
        return job != JobKind.SPARSE_LINEAR || dataset == null || dataset.format() == DataFormat.LIBSVM;
    }
}

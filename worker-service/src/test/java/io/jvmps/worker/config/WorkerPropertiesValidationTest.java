package io.jvmps.worker.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad worker settings stop start-up with a message naming the property. */
class WorkerPropertiesValidationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({WorkerProperties.class, io.jvmps.common.node.SchedulerAddress.class,
            io.jvmps.common.node.NodeProperties.class})
    static class Props {
        @org.springframework.context.annotation.Bean
        io.jvmps.worker.model.ModelProvider modelProvider(WorkerProperties props) {
            return WorkerConfiguration.resolveModel(props, Props.class.getClassLoader());
        }

    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Props.class);

    @Test
    void defaultsAreAccepted() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            WorkerProperties props = context.getBean(WorkerProperties.class);
            assertThat(props.training().epochs()).isEqualTo(4);
            assertThat(props.training().batchSize()).isEqualTo(64);
            assertThat(props.servers().waitInterval()).hasSeconds(3);
            assertThat(props.servers().connectionLossTimeout()).hasSeconds(15);
            assertThat(props.dataset().trainFile()).as("unset files are empty, not null").isEmpty();
            assertThat(props.output().modelDir()).isEmpty();
            assertThat(props.localParams()).isEmpty();
            assertThat(props.dataset().csv().delimiter()).isEqualTo(",");
            assertThat(props.graph().names()).isEqualTo(io.jvmps.client.train.GraphNames.DEFAULT);
            assertThat(props.ctr().vocabulary()).isEqualTo(10_000);
            assertThat(props.lifecycle().shutdownTimeout()).hasSeconds(30);
            assertThat(props).isEqualTo(WorkerPropertiesBinding.bind());
        });
    }

    @Test
    void aConnectionLossTimeoutUnderHalfASecondIsRejected() {
        runner.withPropertyValues("ps.worker.servers.connection-loss-timeout=100ms").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("ps.worker.servers.connection-loss-timeout must be at least 500ms"));
    }

    @Test
    void moreCrossedPairsThanTheFieldsHoldAreRefusedAtStartUp() {
        runner.withPropertyValues("ps.worker.job=CTR", "ps.worker.ctr.fields=4", "ps.worker.ctr.crosses=3").run(context ->
                assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure()))
                        .contains("ps.worker.ctr.crosses must be at most ps.worker.ctr.fields / 2"));
        runner.withPropertyValues("ps.worker.job=CTR", "ps.worker.ctr.fields=4", "ps.worker.ctr.crosses=2").run(context ->
                assertThat(context).hasNotFailed());
    }

    @Test
    void theSparseLinearJobNeedsLibSvmData() {
        runner.withPropertyValues("ps.worker.job=SPARSE_LINEAR", "ps.worker.dataset.format=CSV").run(context ->
                assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure()))
                        .contains("ps.worker.job=SPARSE_LINEAR reads LibSVM files: set ps.worker.dataset.format=LIBSVM"));
        runner.withPropertyValues("ps.worker.job=SPARSE_LINEAR", "ps.worker.dataset.format=LIBSVM").run(context ->
                assertThat(context).hasNotFailed());
    }

    @Test
    void dynamicShardingWithAnEmbeddingCacheIsRefused() {
        runner.withPropertyValues("ps.worker.dataset.sharding=DYNAMIC", "ps.worker.graph.cache-rows=1000").run(context ->
                assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure()))
                        .contains("ps.worker.dataset.sharding=DYNAMIC does not take a model file's embedding cache"));
        runner.withPropertyValues("ps.worker.dataset.sharding=DYNAMIC").run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void zeroBatchSizeIsRejectedNamingTheProperty() {
        runner.withPropertyValues("ps.worker.training.batch-size=0").run(context ->
        {
            assertThat(context).getFailure().rootCause().hasMessageContaining("ps.worker.training.batchSize")
                    .hasMessageContaining("must be greater than or equal to 1");
            assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure()))
                    .isEqualTo("ps.worker.training.batch-size=0 must be greater than or equal to 1");
        });
    }

    @Test
    void unknownModelIsRejectedListingTheAcceptedValues() {
        runner.withPropertyValues("ps.worker.model=RESNET").run(context ->
        {
            assertThat(context).getFailure().hasStackTraceContaining("ps.worker.model")
                    .hasStackTraceContaining("RESNET");
            assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure()))
                    .startsWith("[INVALID_ARGUMENT] ps.worker.model='RESNET' is neither a built-in model [LENET5, SOFTMAX], a "
                            + "ModelProvider on the class path [], nor a model file (no file at ");
        });
    }

    @Test
    void aModelFileWithTablesIsTrainedByTheLibraryWithItsTablesDeclared(@org.junit.jupiter.api.io.TempDir
                                                                        java.nio.file.Path dir) {
        String file = io.jvmps.worker.model.UserGraphs.ratings(dir.resolve("ratings.sd")).toString();
        String[] settings = {"ps.worker.model=" + file, "ps.worker.dataset.format=CSV",
                "ps.worker.graph.prediction=prediction", "ps.worker.dataset.csv.label-kind=REAL",
                "ps.worker.dataset.csv.columns=user:ID,item:ID"};
        runner.withPropertyValues(settings).withPropertyValues("ps.worker.graph.tables=users,items:hashed:init=0")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var graph = (io.jvmps.worker.model.LibraryGraph) context.getBean(io.jvmps.worker.model.ModelProvider.class);
                    assertThat(graph.graph().tables().variables()).containsExactly("users", "items");
                    assertThat(graph.graph().params()).extracting(p -> p.name()).containsExactly("mean");
                    assertThat(graph.tables().get(1)).isEqualTo(io.jvmps.client.train.EmbeddingTable.of("items")
                            .asHashed().withInit(0f, io.jvmps.client.train.EmbeddingTable.of("items").seed()));
                    assertThat(context.getBean(WorkerProperties.class).dataset().csv().format().columns())
                            .containsOnlyKeys("user", "item");
                });
        runner.withPropertyValues(settings).run(context -> assertThat(describe(context)).as("a table left undeclared "
                + "is a gather of a dense variable, which the library refuses by name").contains("users"));
        runner.withPropertyValues(settings).withPropertyValues("ps.worker.graph.tables=users,items:hash")
                .run(context -> assertThat(describe(context)).contains("ps.worker.graph.tables: table 'items:hash': "
                        + "'hash' is not hashed"));
        runner.withPropertyValues(settings).withPropertyValues("ps.worker.graph.tables=users,genres")
                .run(context -> assertThat(describe(context)).contains("embedding table 'genres' must be a FLOAT "
                        + "variable"));
        runner.withPropertyValues(settings).withPropertyValues("ps.worker.graph.tables=users,items",
                "ps.worker.dataset.format=NPY").run(context -> assertThat(describe(context))
                .contains("reads CSV or LIBSVM data: set ps.worker.dataset.format=CSV or LIBSVM (it is NPY)"));
        runner.withPropertyValues(settings).withPropertyValues("ps.worker.graph.tables=users,items",
                "ps.worker.dataset.format=LIBSVM").run(context -> assertThat(describe(context))
                .contains("LIBSVM data feeds a model file's one table lookup").contains("ids [user, item]"));
        runner.withPropertyValues("ps.worker.graph.tables=users").run(context -> assertThat(describe(context))
                .contains("need ps.worker.model to be a SameDiff model file"));
    }

    @Test
    void aModelFileWithOneTableLookupTakesLibSvmFeatures(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String file = io.jvmps.worker.model.UserGraphs.sparseLogistic(dir.resolve("clicks.sd"), 784).toString();
        runner.withPropertyValues("ps.worker.model=" + file, "ps.worker.dataset.format=LIBSVM",
                "ps.worker.graph.tables=weights", "ps.worker.graph.prediction=prediction").run(context -> {
                    assertThat(context).hasNotFailed();
                    var graph = (io.jvmps.worker.model.LibraryGraph) context.getBean(io.jvmps.worker.model.ModelProvider.class);
                    assertThat(graph.idInputs()).containsExactly("x");
                    assertThat(graph.labelWidth()).as("clicks").isEqualTo(1);
                });
    }

    @Test
    void csvColumnsAndTheValueSeparatorAreReadOrRefusedByName() {
        runner.withPropertyValues("ps.worker.dataset.csv.columns=user:id,tags:IDS",
                "ps.worker.dataset.csv.value-separator=;").run(context -> {
                    var format = context.getBean(WorkerProperties.class).dataset().csv().format();
                    assertThat(format.columns()).containsEntry("user", io.jvmps.client.dataset.ColumnKind.ID);
                    assertThat(format.valueSeparator()).isEqualTo(';');
                });
        runner.withPropertyValues("ps.worker.dataset.csv.columns=user").run(context ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> context.getBean(WorkerProperties.class)
                        .dataset().csv().format()).hasMessageContaining("ps.worker.dataset.csv.columns: column entry "
                        + "'user' is not NAME:KIND"));
        runner.withPropertyValues("ps.worker.dataset.csv.value-separator=;;").run(context ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> context.getBean(WorkerProperties.class)
                        .dataset().csv().format()).hasMessageContaining("value-separator must be one character"));
    }

    private static String describe(org.springframework.boot.test.context.assertj.AssertableApplicationContext context) {
        return io.jvmps.common.startup.StartupFailureReporter.describe(context.getStartupFailure());
    }

    @Test
    void schedulerPortOutOfRangeIsRejected() {
        runner.withPropertyValues("ps.scheduler.port=70000").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("ps.scheduler.port"));
    }
}

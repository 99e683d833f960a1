package io.jvmps.worker.model;

import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.StepResult;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A DL4J network trains through the PS surface as DL4J itself trains it: the gradients it gives, applied by
 * plain SGD, move the parameters exactly as the network's own {@code fit} with an SGD updater does; its
 * file goes back out as a zip DL4J loads; wrong sizes and files are refused with the cause.
 */
class Dl4jModelTest {
    private static final double RATE = 0.1;

    @TempDir
    Path dir;

    private Path network(String name) throws IOException {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.FLOAT)
                .updater(new Sgd(RATE)).list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(5).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(5).nOut(3)
                        .activation(Activation.SOFTMAX).build())
                .build();
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        Path file = dir.resolve(name);
        ModelSerializer.writeModel(net, file.toFile(), true);
        return file;
    }

    private static DataSet batch() {
        INDArray x = Nd4j.create(new float[]{0.5f, -1f, 2f, 0f, 1f, 1f, -0.5f, 0.25f, -2f, 0.5f, 0f, 1f,
                0.1f, 0.2f, 0.3f, 0.4f, 1.5f, -1f, 0.5f, -0.5f}, new long[]{5, 4}, 'c');
        INDArray y = Nd4j.create(new float[]{1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1}, new long[]{5, 3}, 'c');
        return new DataSet(x, y);
    }

    @Test
    void itsGradientsByPlainSgdMoveTheParametersAsDl4jsOwnFitDoes() throws Exception {
        Path file = network("net.zip");
        Dl4jModel model = Dl4jModel.load(file, 4, 3);
        assertThat(model.params()).extracting(ParamSpec::name).containsExactly("0_W", "0_b", "1_W", "1_b");
        assertThat(model.params().get(0).shape()).containsExactly(4, 5);
        MultiLayerNetwork reference = MultiLayerNetwork.load(file.toFile(), true);
        DataSet batch = batch();
        for (int step = 0; step < 3; step++) {
            StepResult result = model.gradients(batch.getFeatures(), batch.getLabels());
            assertThat(result.loss()).isPositive();
            for (ParamSpec p : model.params()) {
                model.setParam(p.name(), model.param(p.name()).sub(result.gradients().get(p.name()).mul(RATE)));
            }
            reference.fit(batch);
        }
        for (ParamSpec p : model.params()) {
            INDArray expected = reference.getParam(p.name()).dup('c');
            assertThat(model.param(p.name()).sub(expected).amaxNumber().doubleValue()).as(p.name())
                    .isLessThan(1e-5);
        }
        assertThat(model.initialParams(1).get("0_W")).as("the file's values start every worker")
                .isEqualTo(MultiLayerNetwork.load(file.toFile(), false).getParam("0_W").dup('c'));
    }

    @Test
    void theSavedZipIsWhatDl4jLoadsAndPredictsTheSame() throws Exception {
        Dl4jModel model = Dl4jModel.load(network("in.zip"), 4, 3);
        model.setParam("1_b", Nd4j.create(new float[]{0.5f, -0.5f, 0.25f}));
        Path out = dir.resolve("model.zip");
        model.save(out);
        assertThat(model.fileName()).isEqualTo("model.zip");
        assertThat(model.fileFormat()).isEqualTo("dl4j");
        assertThat(Dl4jModel.isDl4jFile(out)).isTrue();
        INDArray x = batch().getFeatures();
        assertThat(MultiLayerNetwork.load(out.toFile(), false).output(x)).isEqualTo(model.predict(x));
    }

    @Test
    void aComputationGraphOfOneInputAndOutputTrainsAsDl4jsFitDoes() throws Exception {
        var conf = new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.FLOAT).updater(new Sgd(RATE))
                .graphBuilder().addInputs("in")
                .addLayer("hidden", new DenseLayer.Builder().nIn(4).nOut(6).activation(Activation.RELU).build(), "in")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(6).nOut(3)
                        .activation(Activation.SOFTMAX).build(), "hidden")
                .setOutputs("out").build();
        org.deeplearning4j.nn.graph.ComputationGraph graph = new org.deeplearning4j.nn.graph.ComputationGraph(conf);
        graph.init();
        Path file = dir.resolve("graph.zip");
        ModelSerializer.writeModel(graph, file.toFile(), true);
        Dl4jModel model = Dl4jModel.load(file, 4, 3);
        assertThat(model.params()).extracting(ParamSpec::name)
                .containsExactly("hidden_W", "hidden_b", "out_W", "out_b");
        var reference = org.deeplearning4j.nn.graph.ComputationGraph.load(file.toFile(), true);
        DataSet batch = batch();
        for (int step = 0; step < 3; step++) {
            StepResult result = model.gradients(batch.getFeatures(), batch.getLabels());
            for (ParamSpec p : model.params()) {
                model.setParam(p.name(), model.param(p.name()).sub(result.gradients().get(p.name()).mul(RATE)));
            }
            reference.fit(batch);
        }
        for (ParamSpec p : model.params()) {
            assertThat(model.param(p.name()).sub(reference.getParam(p.name()).dup('c')).amaxNumber().doubleValue())
                    .as(p.name()).isLessThan(1e-5);
        }
        Path out = dir.resolve("graph-out.zip");
        model.save(out);
        assertThat(org.deeplearning4j.nn.graph.ComputationGraph.load(out.toFile(), false)
                .outputSingle(batch.getFeatures())).isEqualTo(model.predict(batch.getFeatures()));
    }

    @Test
    void wrongSizesNamesAndFilesAreRefusedWithTheCause() throws Exception {
        Path file = network("n.zip");
        assertThatThrownBy(() -> Dl4jModel.load(file, 7, 3)).isInstanceOf(PsException.class)
                .hasMessageContaining("DL4J network n.zip cannot take examples of 7 features");
        assertThatThrownBy(() -> Dl4jModel.load(file, 4, 10))
                .hasMessageContaining("gives scores of shape [1, 3] for one example; the data has 10 classes");
        Dl4jModel model = Dl4jModel.load(file, 4, 3);
        assertThatThrownBy(() -> model.setParam("2_W", Nd4j.zeros(1))).isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.UNKNOWN_KEY))
                .hasMessageContaining("has no parameter '2_W'; its parameters: [0_W, 0_b, 1_W, 1_b]");
        assertThatThrownBy(() -> model.setParam("0_b", Nd4j.zeros(4)))
                .hasMessageContaining("given 4 elements");
        Path text = Files.writeString(dir.resolve("not.zip"), "hello");
        assertThat(Dl4jModel.isDl4jFile(text)).isFalse();
        Path broken = dir.resolve("broken.zip");
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(broken))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("configuration.json"));
            zip.write("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.putNextEntry(new java.util.zip.ZipEntry("coefficients.bin"));
        }
        assertThat(Dl4jModel.isDl4jFile(broken)).isTrue();
        assertThatThrownBy(() -> Dl4jModel.load(broken, 4, 3)).isInstanceOf(PsException.class)
                .hasMessageContaining("is neither a DL4J MultiLayerNetwork nor a ComputationGraph saved by "
                        + "ModelSerializer");
    }

    @Test
    void theWorkersModelSettingTakesADl4jZip() throws Exception {
        Path file = network("provided.zip");
        ModelProvider provider = ModelProviders.resolve(file.toString(), GraphNames.DEFAULT,
                getClass().getClassLoader());
        assertThat(provider.create(4, 3)).isInstanceOf(Dl4jModel.class);
        assertThatThrownBy(() -> provider.check(Placement.workerLocal("9_b")))
                .hasMessageContaining("9_b");
    }
}

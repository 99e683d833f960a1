package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.client.train.GraphNames;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileModelTest {
    @TempDir
    Path dir;

    @Test
    void everyFloatVariableOfTheFileIsAParameterStartingAtItsSavedValue() {
        Path file = UserGraphs.mlp(dir.resolve("mlp.sd"), 4, 8, 3, 7);
        SameDiff plain = SameDiff.load(file.toFile(), false);

        FileModel model = FileModel.load(file, UserGraphs.NAMES);

        assertThat(model.params().stream().map(ParamSpec::name)).containsExactlyInAnyOrder("W1", "b1", "W2", "b2");
        assertThat(model.params().get(0).shape()).containsExactly(4, 8);
        assertThat(model.inputSize()).isEqualTo(4);
        assertThat(model.numClasses()).isEqualTo(3);
        Map<String, INDArray> initial = model.initialParams(99);
        assertThat(initial.get("W1")).isEqualTo(plain.getVariable("W1").getArr());
        assertThat(model.initialParams(1).get("W2")).isEqualTo(initial.get("W2"));
    }

    @Test
    void trainsWithTheGraphsOwnLossAndSavesTheTrainedValuesForPlainSameDiff() {
        FileModel model = FileModel.load(UserGraphs.mlp(dir.resolve("mlp.sd"), 4, 8, 3, 7), UserGraphs.NAMES);
        INDArray x = Nd4j.rand(DataType.FLOAT, 30, 4);
        INDArray y = Nd4j.zeros(DataType.FLOAT, 30, 3);
        for (int i = 0; i < 30; i++) {
            y.putScalar(i, x.getFloat(i, 0) > 0.5f ? 0 : x.getFloat(i, 1) > 0.5f ? 1 : 2, 1f);
        }
        double first = model.gradients(x, y).loss();
        double last = first;
        for (int step = 0; step < 60; step++) {
            StepResult result = model.gradients(x, y);
            assertThat(result.gradients().keySet()).containsExactlyInAnyOrder("W1", "b1", "W2", "b2");
            for (String name : result.gradients().keySet()) {
                model.setParam(name, model.param(name).sub(result.gradients().get(name).mul(0.5)));
            }
            last = result.loss();
        }
        assertThat(last).isLessThan(first * 0.8);

        Path saved = dir.resolve("trained.sd");
        model.save(saved);
        SameDiff plain = SameDiff.load(saved.toFile(), false);
        assertThat(plain.getVariable("W1").getArr()).isEqualTo(model.param("W1"));
        INDArray scores = plain.output(Map.of("x", x), "scores").get("scores");
        assertThat(scores.equalsWithEps(model.predict(x), 1e-5)).isTrue();
        assertThat(Files.exists(dir.resolve("trained.sd.tmp"))).isFalse();
    }

    @Test
    void aMissingVariableIsNamedAndTheGraphsVariablesListed() {
        Path file = UserGraphs.mlp(dir.resolve("mlp.sd"), 4, 8, 3, 7);
        assertThatThrownBy(() -> FileModel.load(file, new GraphNames("x", "y", "nope", "scores")))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("no variable 'nope'").hasMessageContaining("ps.worker.graph.loss")
                .hasMessageContaining("W1:VARIABLE").hasMessageContaining("x:PLACEHOLDER")
                .hasMessageContaining("xent");
        assertThatThrownBy(() -> FileModel.load(file, new GraphNames("W1", "y", "xent", "scores")))
                .isInstanceOf(PsException.class).hasMessageContaining("ps.worker.graph.input='W1' is a VARIABLE, not a PLACEHOLDER");
    }

    @Test
    void refusesWhatIsNoModelFileAndDataOfOtherSizes() throws Exception {
        assertThatThrownBy(() -> FileModel.load(dir.resolve("absent.sd"), UserGraphs.NAMES))
                .isInstanceOf(PsException.class).hasMessageContaining("no readable model file");
        Path junk = Files.write(dir.resolve("junk.sd"), new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        assertThatThrownBy(() -> FileModel.load(junk, UserGraphs.NAMES))
                .isInstanceOf(PsException.class).hasMessageContaining("is not a SameDiff model file");
        FileModel model = FileModel.load(UserGraphs.mlp(dir.resolve("mlp.sd"), 4, 8, 3, 7), UserGraphs.NAMES);
        assertThatThrownBy(() -> model.requireSizes(5, 3))
                .isInstanceOf(PsException.class).hasMessageContaining("takes 4 features and 3 classes")
                .hasMessageContaining("has 5 features");
    }

    @Test
    void providersResolveBuiltInsIgnoringCaseAndFilesAndNameEverythingElse() {
        assertThat(ModelProviders.resolve("softmax", GraphNames.DEFAULT, getClass().getClassLoader()))
                .isSameAs(ModelType.SOFTMAX);
        Path file = UserGraphs.mlp(dir.resolve("mlp.sd"), 4, 8, 3, 7);
        ModelProvider fromFile = ModelProviders.resolve(file.toString(), UserGraphs.NAMES, getClass().getClassLoader());
        assertThat(fromFile.create(4, 3).params()).hasSize(4);
        assertThatThrownBy(() -> fromFile.check(Placement.workerLocal("nope")))
                .isInstanceOf(PsException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> ModelProviders.resolve("RESNET", GraphNames.DEFAULT, getClass().getClassLoader()))
                .isInstanceOf(PsException.class).hasMessageContaining("ps.worker.model='RESNET'")
                .hasMessageContaining("[LENET5, SOFTMAX]").hasMessageContaining("no file at");
    }

    @Test
    void aBuiltInModelSavesAFilePlainSameDiffPredictsWith() {
        SoftmaxRegression model = new SoftmaxRegression(6, 3);
        model.setParam("W", Nd4j.rand(DataType.FLOAT, 6, 3));
        Path file = dir.resolve("softmax.sd");
        model.save(file);
        INDArray x = Nd4j.rand(DataType.FLOAT, 5, 6);
        SameDiff plain = SameDiff.load(file.toFile(), false);
        assertThat(plain.output(Map.of("input", x), "probabilities").get("probabilities")
                .equalsWithEps(model.predict(x), 1e-5)).isTrue();
        FileModel reloaded = FileModel.load(file, GraphNames.DEFAULT);
        assertThat(reloaded.initialParams(0).get("W")).isEqualTo(model.param("W"));
    }
}

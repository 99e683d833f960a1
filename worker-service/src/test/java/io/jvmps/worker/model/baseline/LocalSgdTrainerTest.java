package io.jvmps.worker.model.baseline;

import io.jvmps.client.train.LocalOptimizer;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.SyntheticData;
import io.jvmps.worker.model.SoftmaxRegression;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

class LocalSgdTrainerTest {

    @ParameterizedTest(name = "{0} lr={1}")
    @CsvSource({"SGD, 0.5", "ADAM, 0.05"})
    void softmaxRegressionLearnsGaussianBlobs(OptimizerType optimizer, double learningRate) {
        LabeledData train = SyntheticData.blobs(800, 10, 4, 1.5, 21, 1);
        LabeledData test = SyntheticData.blobs(400, 10, 4, 1.5, 21, 2);
        LocalSgdTrainer trainer = new LocalSgdTrainer(new SoftmaxRegression(10, 4), LocalOptimizer.of(optimizer, learningRate), 32,
                5, 9, Clock.systemUTC());
        double before = trainer.accuracy(test);

        EpochReport first = trainer.trainEpoch(train, 0);
        EpochReport last = first;
        for (int epoch = 1; epoch < 4; epoch++) {
            last = trainer.trainEpoch(train, epoch);
        }

        assertThat(first.steps()).isEqualTo(25);
        assertThat(first.samples()).isEqualTo(800);
        assertThat(last.meanLoss()).isLessThan(first.meanLoss());
        assertThat(before).isLessThan(0.7);
        assertThat(trainer.accuracy(test)).isGreaterThan(0.9);
    }
}

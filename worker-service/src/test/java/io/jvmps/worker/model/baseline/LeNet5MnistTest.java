package io.jvmps.worker.model.baseline;

import io.jvmps.client.train.LocalOptimizer;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.worker.model.LeNet5;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.nio.file.Path;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Runs only when real MNIST is present: {@code ../data/mnist} from the module directory (where
 * {@code ./scripts/fetch-mnist.sh} puts it) or the directory named by {@code -Dps.test.mnist-dir}.
 */
@EnabledIf("mnistPresent")
class LeNet5MnistTest {

    static Path mnistDir() {
        return Path.of(System.getProperty("ps.test.mnist-dir", "../data/mnist"));
    }

    static boolean mnistPresent() {
        return MnistDataset.isPresent(mnistDir());
    }

    @Test
    void realMnistLoadsAndLeNetLearnsFromASmallSubset() {
        LabeledData train = MnistDataset.load(mnistDir(), MnistSplit.TRAIN, 3000);
        LabeledData test = MnistDataset.load(mnistDir(), MnistSplit.TEST, 1000);
        assertThat(train.size()).isEqualTo(3000);
        assertThat(train.features().meanNumber().doubleValue()).as("MNIST mean intensity").isCloseTo(0.13, within(0.02));
        for (float perClass : train.labels().sum(0).toFloatVector()) {
            assertThat(perClass).isGreaterThan(200f);
        }

        LocalSgdTrainer trainer = new LocalSgdTrainer(new LeNet5(), LocalOptimizer.of(io.jvmps.optimizer.OptimizerType.ADAM, 1e-3), 64, 1, 1, Clock.systemUTC());
        EpochReport first = trainer.trainEpoch(train, 0);
        EpochReport second = trainer.trainEpoch(train, 1);

        assertThat(first.steps()).isEqualTo(47);
        assertThat(second.meanLoss()).isLessThan(first.meanLoss());
        assertThat(trainer.accuracy(test)).isGreaterThan(0.85);
    }
}

package io.jvmps.client.dataset;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.indexing.NDArrayIndex;

import static org.assertj.core.api.Assertions.assertThat;

class SyntheticDataTest {

    @Test
    void blobsAreSeededBalancedAndOneHot() {
        LabeledData a = SyntheticData.blobs(103, 6, 4, 3.0, 11);
        assertThat(a.features().shape()).containsExactly(103, 6);
        assertThat(a.labels().shape()).containsExactly(103, 4);
        assertThat(a.features().dataType()).isEqualTo(DataType.FLOAT);
        assertThat(a.labels().sum(1).toFloatVector()).containsOnly(1f);
        assertThat(a.labels().sum(0).toFloatVector()).containsExactly(26f, 26f, 26f, 25f);

        assertThat(SyntheticData.blobs(103, 6, 4, 3.0, 11).features()).isEqualTo(a.features());
        assertThat(SyntheticData.blobs(103, 6, 4, 3.0, 12).features()).isNotEqualTo(a.features());
    }

    @Test
    void trainAndTestShareCentresButNotNoise() {
        LabeledData train = SyntheticData.blobs(400, 5, 2, 4.0, 1, 1);
        LabeledData test = SyntheticData.blobs(400, 5, 2, 4.0, 1, 2);
        assertThat(test.features()).isNotEqualTo(train.features());
        // class means estimated from either set agree (centres shared, noise N(0,1))
        double[] trainMean = train.features().get(NDArrayIndex.interval(0, 2, 400),
                NDArrayIndex.all()).mean(0).toDoubleVector();
        double[] testMean = test.features().get(NDArrayIndex.interval(0, 2, 400),
                NDArrayIndex.all()).mean(0).toDoubleVector();
        for (int j = 0; j < 5; j++) {
            assertThat(Math.abs(trainMean[j] - testMean[j])).isLessThan(0.5);
        }
    }
}

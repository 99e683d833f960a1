package io.jvmps.worker.ctr;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ClickDataTest {
    private static final ClickDataSpec SPEC = new ClickDataSpec(6, 1000, 1.05, 2, 0.6, 0.8, -1.0, 7);

    @Test
    void theSameSpecAndStreamGiveTheSameExamplesAndOtherStreamsDiffer() {
        ClickData a = ClickData.generate(SPEC, 2000, 0);
        ClickData b = ClickData.generate(SPEC, 2000, 0);
        ClickData test = ClickData.generate(SPEC, 2000, 1);
        int[] all = IntStream.range(0, 2000).toArray();
        assertThat(a.wideIds(all)).containsExactly(b.wideIds(all));
        assertThat(a.deepIds(all)).isNotEqualTo(test.deepIds(all));
        for (int i = 0; i < 2000; i++) {
            assertThat(a.label(i)).isEqualTo(b.label(i));
        }
    }

    @Test
    void theOracleIsInformativeButNotPerfect() {
        ClickData data = ClickData.generate(SPEC, 20_000, 1);
        assertThat(data.oracleAuc()).isBetween(0.70, 0.95);
        assertThat(data.clickRate()).isBetween(0.2, 0.5);
    }

    @Test
    void idsAreLaidOutByFieldThenCrossAndFollowZipf() {
        ClickData data = ClickData.generate(SPEC, 5000, 0);
        long[] wide = data.wideIds(new int[] {3});
        long[] deep = data.deepIds(new int[] {3});
        assertThat(wide).hasSize(SPEC.wideIds());
        assertThat(java.util.Arrays.copyOf(wide, 6)).containsExactly(deep);
        for (int f = 0; f < 6; f++) {
            assertThat(deep[f] / 1000).isEqualTo(f);
        }
        assertThat(wide[6] >>> 62).isEqualTo(1);
        long top = IntStream.range(0, 5000).filter(i -> data.deepIds(new int[] {i})[0] == 0).count();
        double expected = 1.0 / new ZipfSampler(1000, 1.05).headMass(1000) * new ZipfSampler(1000, 1.05).headMass(1);
        assertThat(top / 5000.0).isCloseTo(expected, within(0.03));
    }

    @Test
    void aRankOneCrossTruthFactorisesAndAPairWeightOfItsOwnDoesNot() {
        assertThat(crossDeterminant(1)).as("rank 1: w(a1,b1) w(a2,b2) = w(a1,b2) w(a2,b1)").isCloseTo(0, within(1e-4));
        assertThat(Math.abs(crossDeterminant(0))).as("a weight per pair").isGreaterThan(1e-2);
        assertThat(new ClickDataSpec(2, 3, 1.0, 1, 0, 1, 0, 7, 2).crossRank()).isEqualTo(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ClickDataSpec(2, 3, 1.0, 1, 0, 1, 0, 7, 65))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cross rank 65");
    }

    /** @return w(0,0) w(1,1) - w(0,1) w(1,0) of a truth made of one crossed pair alone (values 0, 1 of 2 fields) */
    private static double crossDeterminant(int rank) {
        ClickData data = ClickData.generate(new ClickDataSpec(2, 3, 1.0, 1, 0, 1, 0, 7, rank), 2000, 0);
        double[][] logit = new double[2][2];
        for (int i = 0; i < data.size(); i++) {
            long[] ids = data.deepIds(new int[] {i});
            int a = (int) ids[0];
            int b = (int) (ids[1] - 3);
            if (a < 2 && b < 2) {
                double p = data.truth(i);
                logit[a][b] = Math.log(p / (1 - p));
            }
        }
        return logit[0][0] * logit[1][1] - logit[0][1] * logit[1][0];
    }
}

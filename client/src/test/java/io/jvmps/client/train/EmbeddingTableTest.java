package io.jvmps.client.train;

import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddingTableTest {
    @Test
    void aBareNameIsTheDefaultTable() {
        assertThat(EmbeddingTable.parse(" userFactors ")).isEqualTo(EmbeddingTable.of("userFactors"));
    }

    @Test
    void everyPartSetsWhatItNames() {
        EmbeddingTable t = EmbeddingTable.parse("genres:hashed:init=0.01:seed=7:optimizer=adagrad");
        assertThat(t).isEqualTo(EmbeddingTable.of("genres").asHashed().withInit(0.01f, 7).withOptimizer("ADAGRAD"));
        assertThat(EmbeddingTable.parse("bias:init=0").seed()).isEqualTo(EmbeddingTable.of("bias").seed());
        EmbeddingTable up = EmbeddingTable.parse("items:init-rows=500");
        assertThat(up.initRows()).isEqualTo(500);
        assertThat(up.spec(8).initRows()).as("the servers' declaration carries it").isEqualTo(500);
        assertThat(EmbeddingTable.of("items").initRows()).as("rows on first use by default").isZero();
        EmbeddingTable ads = EmbeddingTable.parse("adId:hashed:admit-after=3:evict-after=5000");
        assertThat(ads.spec(16).lifecycle()).as("the servers' declaration carries it")
                .isEqualTo(new io.jvmps.common.sparse.RowLifecycle(3, 5000));
        assertThat(EmbeddingTable.of("items").spec(8).lifecycle()).isEqualTo(io.jvmps.common.sparse.RowLifecycle.KEEP_ALL);
        assertThat(EmbeddingTable.parse("adId:hashed:evict-when-full:admit-after=2").spec(4).lifecycle())
                .isEqualTo(new io.jvmps.common.sparse.RowLifecycle(2, 0, true));
        assertThatThrownBy(() -> EmbeddingTable.parse("t:evict-when-full=yes")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EmbeddingTable.parse("t:admit-after=0")).isInstanceOf(PsException.class)
                .hasMessageContaining("admitAfter");
    }

    @Test
    void aPartThatIsNoneOfThoseIsRefusedByName() {
        assertThatThrownBy(() -> EmbeddingTable.parse("t:hash")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'hash' is not hashed, init=SCALE");
        assertThatThrownBy(() -> EmbeddingTable.parse("t:init")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'init'");
        assertThatThrownBy(() -> EmbeddingTable.parse("t:init=big")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'init=big' needs a number");
    }

    @Test
    void whatTheServersDoNotTakeIsRefusedAsTheyWould() {
        assertThatThrownBy(() -> EmbeddingTable.parse("")).isInstanceOf(PsException.class);
        assertThatThrownBy(() -> EmbeddingTable.parse("t:init=-1")).isInstanceOf(PsException.class);
        assertThatThrownBy(() -> EmbeddingTable.parse("t:init-rows=-1")).isInstanceOf(PsException.class);
    }
}

package io.jvmps.worker.ctr;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.train.GraphTables;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.common.sharding.ParamSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WideDeepGraphTest {
    private static final ClickDataSpec SPEC = new ClickDataSpec(4, 100, 1.05, 1, 0.6, 0.8, -1.0, 3);

    @Test
    void bothTablesAreHashedLookupsOfTheirIdsAndTheDenseLayersAreTheOnlyParameters() {
        SameDiffGraph graph = WideDeepGraph.build(SPEC, 6, 8, 4, 0.02f, 11, "ADAGRAD", 400);
        GraphTables tables = graph.tables();
        assertThat(tables.variables()).containsExactly(WideDeepGraph.WIDE_TABLE, WideDeepGraph.DEEP_TABLE);
        GraphTables.Table wide = tables.list().get(0);
        GraphTables.Table deep = tables.list().get(1);
        assertThat(wide.dim()).isEqualTo(1);
        assertThat(deep.dim()).isEqualTo(6);
        assertThat(wide.table().hashed()).isTrue();
        assertThat(deep.table().hashed()).isTrue();
        assertThat(wide.table().initScale()).as("the wide weights start at zero").isZero();
        assertThat(deep.table().initScale()).isEqualTo(0.02f);
        assertThat(deep.table().seed()).isNotEqualTo(wide.table().seed());
        assertThat(deep.table().spec(6).initRows()).isEqualTo(400);
        assertThat(wide.table().spec(1).initRows()).as("only the deep table is created at declaration").isZero();
        assertThat(deep.table().optimizer()).isEqualTo("ADAGRAD");
        assertThat(tables.idInputs()).containsEntry(WideDeepGraph.WIDE_IDS, List.of(WideDeepGraph.WIDE_TABLE))
                .containsEntry(WideDeepGraph.DEEP_IDS, List.of(WideDeepGraph.DEEP_TABLE));
        assertThat(graph.params()).extracting(ParamSpec::name).containsExactlyInAnyOrderElementsOf(WideDeepGraph.DENSE);
        assertThat(graph.param("W1").shape()).containsExactly(4L * 6, 8);
        assertThat(graph.param("W3").shape()).containsExactly(4L, 1);
        assertThat(deep.table().spec(6).lifecycle()).isEqualTo(io.jvmps.common.sparse.RowLifecycle.KEEP_ALL);
        var lifecycle = new io.jvmps.common.sparse.RowLifecycle(2, 300);
        GraphTables withLifecycle = WideDeepGraph.build(SPEC, 6, 8, 4, 0.02f, 11, "ADAGRAD", 0, lifecycle).tables();
        assertThat(withLifecycle.list()).allSatisfy(t -> assertThat(t.table().spec(t.dim()).lifecycle())
                .isEqualTo(lifecycle));
    }

    @Test
    void theSameSeedBuildsTheSameDenseStart() {
        SameDiffGraph a = WideDeepGraph.build(SPEC, 6, 8, 4, 0.02f, 11, null, 0);
        SameDiffGraph b = WideDeepGraph.build(SPEC, 6, 8, 4, 0.02f, 11, null, 0);
        SameDiffGraph c = WideDeepGraph.build(SPEC, 6, 8, 4, 0.02f, 12, null, 0);
        assertThat(a.param("W1")).isEqualTo(b.param("W1"));
        assertThat(a.param("W1")).isNotEqualTo(c.param("W1"));
        assertThat(a.param("b1").sumNumber().doubleValue()).isZero();
    }

    @Test
    void clickExamplesFeedTheGraphsIdPlaceholdersAndTheClick() {
        ClickData data = ClickData.generate(SPEC, 50, 0);
        LabeledData rows = new ClickExamples(data).gather(new int[] {3, 7});
        assertThat(rows.features().shape()).containsExactly(2L, 0);
        assertThat(rows.labels().shape()).containsExactly(2L, 1);
        assertThat(rows.labels().getFloat(1, 0)).isEqualTo((float) data.label(7));
        assertThat(rows.ids().get(WideDeepGraph.WIDE_IDS).reshape(-1).toLongVector())
                .containsExactly(data.wideIds(new int[] {3, 7}));
        assertThat(rows.ids().get(WideDeepGraph.DEEP_IDS).shape()).containsExactly(2L, SPEC.fields());
    }
}

package io.jvmps.client.train;

import io.jvmps.common.sparse.UpdateKind;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** GEO rounds of a table: each row pulled once per round, trained locally, pushed as its change over the workers. */
class GeoTableRowsTest {

    @Test
    void aRowIsPulledOncePerRoundTrainedLocallyAndPushedAsItsChangeOverTheWorkers() {
        GraphTables tables = RowMapClient.graph().tables();
        RowMapClient servers = new RowMapClient();
        GeoTableRows geo = new GeoTableRows(tables, 0.5, 2);

        TableRows first = RowMapClient.batch(tables, 1, 2, 1);
        geo.fill(first, servers);
        assertThat(first.lookupRows().get(tables.lookups().get(0).output()).toFloatMatrix())
                .isEqualTo(new float[][] {{1, -1}, {2, -2}, {1, -1}});
        geo.update(first, servers, 0, RowMapClient.gradient(tables, 3, 1f), false); // id 1 read twice: its gradient is 2, id 2's is 1

        TableRows second = RowMapClient.batch(tables, 2, 3);
        geo.fill(second, servers);
        assertThat(servers.pulls).extracting(Arrays::toString).containsExactly("[1, 2]", "[3]");
        assertThat(second.lookupRows().get(tables.lookups().get(0).output()).toFloatMatrix())
                .as("id 2 as this round trained it, id 3 as pulled").isEqualTo(new float[][] {{1.5f, -2.5f}, {3, -3}});
        geo.update(second, servers, 1, RowMapClient.gradient(tables, 2, -2f), false);
        assertThat(geo.heldRows()).isEqualTo(3);

        geo.roundEnded(servers, 4);
        assertThat(servers.pushes).hasSize(1);
        Object[] push = servers.pushes.get(0);
        assertThat(push[1]).isEqualTo(4L);
        assertThat(push[2]).isEqualTo(UpdateKind.DELTA);
        assertThat((long[]) push[3]).containsExactly(1, 2, 3);
        // id 1: -0.5 * 2 = -1; id 2: -0.5 + 1 = 0.5; id 3: +1; each over 2 workers
        assertThat((float[]) push[4]).containsExactly(-0.5f, -0.5f, 0.25f, 0.25f, 0.5f, 0.5f);
        assertThat(geo.heldRows()).isZero();

        geo.fill(RowMapClient.batch(tables, 1), servers);
        assertThat(servers.pulls).as("a new round pulls again").hasSize(3);
    }

    @Test
    void forgettingDropsTheRoundsRowsUnpushed() {
        GraphTables tables = RowMapClient.graph().tables();
        RowMapClient servers = new RowMapClient();
        GeoTableRows geo = new GeoTableRows(tables, 0.5, 1);
        TableRows rows = RowMapClient.batch(tables, 4);
        geo.fill(rows, servers);
        geo.update(rows, servers, 0, RowMapClient.gradient(tables, 1, 1f), false);
        geo.recovered(servers);
        geo.roundEnded(servers, 0);
        assertThat(servers.pushes).isEmpty();
    }
}

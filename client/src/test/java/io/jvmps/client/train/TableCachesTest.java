package io.jvmps.client.train;

import io.jvmps.common.embedding.EvictionPolicy;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.UpdateKind;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A graph's table behind a worker embedding cache: hot rows train locally and go back as deltas. */
class TableCachesTest {
    private static final GraphTables TABLES = RowMapClient.graph().tables();

    private static float[][] rowsOf(TableRows rows) {
        return rows.lookupRows().get(TABLES.lookups().get(0).output()).toFloatMatrix();
    }

    @Test
    void cachedRowsTrainLocallyAndReachTheServersWhenEvictedAndAtTheLastStep() {
        RowMapClient servers = new RowMapClient();
        try (TableCaches caches = new TableCaches(TABLES, Map.of("users",
                new TableCaches.Setting(2, EvictionPolicy.LRU, 0.5, 0, 1)), servers)) {
            TableRows first = RowMapClient.batch(TABLES, 1, 2, 1);
            caches.fill(first, servers);
            assertThat(rowsOf(first)).isEqualTo(new float[][] {{1, -1}, {2, -2}, {1, -1}});
            caches.update(first, servers, 0, RowMapClient.gradient(TABLES, 3, 1f), false); // id 1: 2, id 2: 1

            TableRows second = RowMapClient.batch(TABLES, 2);
            caches.fill(second, servers);
            assertThat(rowsOf(second)).as("a hit: the row as this worker trained it").isEqualTo(new float[][] {{1.5f, -2.5f}});
            assertThat(servers.pulls).extracting(Arrays::toString).containsExactly("[1, 2]");
            assertThat(servers.pushes).as("no gradient goes to the servers for a cached table").isEmpty();
            caches.update(second, servers, 1, RowMapClient.gradient(TABLES, 1, 0f), false);

            TableRows third = RowMapClient.batch(TABLES, 3);
            caches.fill(third, servers); // room for id 3: the least recently used, id 1, is evicted
            caches.flush();
            assertThat(servers.pushes).hasSize(2);
            Object[] evicted = servers.pushes.get(0);
            assertThat(evicted[2]).isEqualTo(UpdateKind.DELTA);
            assertThat((long[]) evicted[3]).containsExactly(1);
            assertThat((float[]) evicted[4]).containsExactly(-1f, -1f);
            assertThat((long[]) servers.pushes.get(1)[3]).as("the flush writes the changed id 2").containsExactly(2);

            caches.update(third, servers, 2, RowMapClient.gradient(TABLES, 1, 2f), true);
            assertThat(servers.pushes).hasSize(3);
            assertThat((long[]) servers.pushes.get(2)[3]).as("the last step writes id 3 back").containsExactly(3);
            assertThat((float[]) servers.pushes.get(2)[4]).containsExactly(-1f, -1f);
            assertThat(caches.stats().get("users").hits()).isEqualTo(1);
        }
    }

    @Test
    void aRecoveryDropsTheCachedRowsUnwritten() {
        RowMapClient servers = new RowMapClient();
        try (TableCaches caches = new TableCaches(TABLES, Map.of("users",
                new TableCaches.Setting(4, EvictionPolicy.LFU, 0.5, 0, 1)), servers)) {
            TableRows rows = RowMapClient.batch(TABLES, 5);
            caches.fill(rows, servers);
            caches.update(rows, servers, 0, RowMapClient.gradient(TABLES, 1, 1f), false);
            caches.recovered(servers);
            caches.flush();
            assertThat(servers.pushes).isEmpty();
            caches.fill(RowMapClient.batch(TABLES, 5), servers);
            assertThat(servers.pulls).as("read again from the servers").hasSize(2);
        }
    }

    @Test
    void everyRefreshTheCacheWritesItsRowsBackAndReadsThemAgain() {
        RowMapClient servers = new RowMapClient();
        try (TableCaches caches = new TableCaches(TABLES, Map.of("users",
                new TableCaches.Setting(4, EvictionPolicy.LRU, 0.5, 2, 1)), servers)) {
            for (int step = 0; step < 3; step++) {
                TableRows rows = RowMapClient.batch(TABLES, 1);
                caches.fill(rows, servers);
                caches.update(rows, servers, step, RowMapClient.gradient(TABLES, 1, 1f), false);
            }
            caches.flush();
            assertThat(servers.pulls).as("read at step 0, and again after the refresh at step 2").hasSize(2);
            assertThat(servers.pushes).hasSize(2);
            assertThat((float[]) servers.pushes.get(0)[4]).as("two steps' change").containsExactly(-1f, -1f);
            assertThat((float[]) servers.pushes.get(1)[4]).as("the third step's").containsExactly(-0.5f, -0.5f);
            assertThat(caches.stats().get("users").misses()).as("counted over both caches").isEqualTo(2);
            assertThat(caches.stats().get("users").hits()).isEqualTo(1);
        }
        assertThatThrownBy(() -> new TableCaches.Setting(4, EvictionPolicy.LRU, 0.5, -1, 1))
                .hasMessageContaining("refresh steps >= 0");
    }

    @Test
    void aTableThatIsNotCachedIsPulledAndPushedEveryStep() {
        RowMapClient servers = new RowMapClient();
        try (TableCaches caches = new TableCaches(TABLES, Map.of(), servers)) {
            TableRows rows = RowMapClient.batch(TABLES, 7);
            caches.fill(rows, servers);
            caches.update(rows, servers, 3, RowMapClient.gradient(TABLES, 1, 1f), false);
            assertThat(servers.pushes).hasSize(1);
            assertThat(servers.pushes.get(0)[2]).isEqualTo(UpdateKind.GRADIENT);
            assertThat(servers.pushes.get(0)[1]).isEqualTo(3L);
        }
    }

    @Test
    void aCacheIsRefusedForNoTableBadSettingsOrGeo() {
        assertThatThrownBy(() -> TableCaches.Setting.checked(TABLES, ConsistencyMode.SYNC, "items", 10,
                EvictionPolicy.LRU, 0.1, 0, 1)).isInstanceOf(PsException.class).hasMessageContaining("no table 'items' to "
                + "cache; the graph's tables: [users]");
        assertThatThrownBy(() -> TableCaches.Setting.checked(TABLES, ConsistencyMode.SYNC, "users", 0,
                EvictionPolicy.LRU, 0.1, 0, 1)).isInstanceOf(PsException.class).hasMessageContaining("rows >= 1");
        assertThatThrownBy(() -> TableCaches.Setting.checked(TABLES, ConsistencyMode.ASYNC, "users", 10,
                EvictionPolicy.LRU, Double.NaN, 0, 1)).isInstanceOf(PsException.class).hasMessageContaining("rate NaN");
        assertThatThrownBy(() -> TableCaches.Setting.checked(TABLES, ConsistencyMode.GEO, "users", 10,
                EvictionPolicy.LRU, 0.1, 0, 1)).isInstanceOf(PsException.class).hasMessageContaining("in GEO");
        assertThatThrownBy(() -> TableCaches.Setting.checked(TABLES, ConsistencyMode.SYNC, "users", 10,
                EvictionPolicy.LRU, 0.1, 0, 0)).isInstanceOf(PsException.class).hasMessageContaining("write-back rows 0");
    }
}

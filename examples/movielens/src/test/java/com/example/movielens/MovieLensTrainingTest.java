package com.example.movielens;

import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.train.SameDiffGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MovieLensTrainingTest {

    @Test
    void theModelsFiveTablesAreFoundAndItsOnlyDenseParameterIsTheMean() {
        SameDiffGraph graph = MovieLensTraining.graph();
        assertEquals(Set.of("userFactors", "movieFactors", "genreFactors", "userBias", "movieBias"),
                Set.copyOf(graph.tables().variables()));
        assertEquals(List.of("mean"), graph.params().stream().map(p -> p.name()).toList());
    }

    @Test
    void theStockWorkersTableSettingDeclaresTheTablesAsThisProgramDoes() {
        assertEquals(MovieLensTraining.graph().tables().list().stream().map(t -> t.table()).toList(),
                java.util.Arrays.stream(MovieLensTraining.TABLES.split(","))
                        .map(io.jvmps.client.train.EmbeddingTable::parse).toList());
    }

    @Test
    void theRatingsFormatGivesEachPlaceholderItsIds(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("ratings-test.csv"), """
                userId,movieId,rating,genres
                1,31,2.5,Drama
                7,1029,3,Animation|Children|Drama|Musical
                """);
        CsvFile file = MovieLensTraining.ratings(dir, "ratings-test.csv");
        LabeledData rows = file.rows(0, 2);
        assertEquals(Set.of("userId", "movieId", "genres", "genres_mask"), rows.ids().keySet());
        assertEquals(7L, rows.ids().get("userId").getLong(1));
        assertEquals(4, rows.ids().get("genres").columns());
        assertArrayEquals(new float[] {1, 0, 0, 0}, rows.ids().get("genres_mask").getRow(0).toFloatVector());
        assertEquals(rows.ids().get("genres").getLong(0, 0), rows.ids().get("genres").getLong(1, 2),
                "equal genre names hash to one id");
        assertEquals(3f, rows.labels().getFloat(1, 0));
    }
}

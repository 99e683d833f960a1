package com.example.library;

import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.client.train.StepResult;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LibraryTrainingTest {

    @Test
    void theNetworkIsATrainableGraphForTheLibrary() {
        SameDiffGraph graph = SameDiffGraph.of(LibraryTraining.network(16, 1), GraphNames.DEFAULT, "test network");
        assertEquals(Set.of("w1", "b1", "w2", "b2"), new HashSet<>(graph.params().stream().map(p -> p.name()).toList()));
        assertEquals(784, graph.inputSize());
        assertEquals(10, graph.numClasses());
        INDArray labels = Nd4j.zeros(DataType.FLOAT, 4, 10);
        for (int i = 0; i < 4; i++) {
            labels.putScalar(i, i, 1f);
        }
        StepResult step = graph.gradients(Nd4j.rand(DataType.FLOAT, 4, 784), labels);
        assertTrue(Double.isFinite(step.loss()));
        assertEquals(784L * 16, step.gradients().get("w1").length());
    }

    @Test
    void workersGetDisjointShardsOfEquallyManyFullBatches() {
        int n = 103;
        INDArray features = Nd4j.arange(n).castTo(DataType.FLOAT).reshape(n, 1);
        DataSet all = new DataSet(features, Nd4j.zeros(DataType.FLOAT, n, 10));
        List<DataSet> first = Mnist.shard(all, 0, 2, 10);
        List<DataSet> second = Mnist.shard(all, 1, 2, 10);
        assertEquals(5, first.size());
        assertEquals(5, second.size());
        Set<Integer> seen = new HashSet<>();
        for (DataSet batch : first) {
            for (double v : batch.getFeatures().toDoubleVector()) {
                assertTrue(seen.add((int) v));
            }
        }
        for (DataSet batch : second) {
            for (double v : batch.getFeatures().toDoubleVector()) {
                assertTrue(seen.add((int) v), "example " + v + " in both shards");
            }
        }
        assertEquals(100, seen.size());
    }
}

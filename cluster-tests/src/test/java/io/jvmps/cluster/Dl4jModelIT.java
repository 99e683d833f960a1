package io.jvmps.cluster;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's Deeplearning4j network (a small CNN built here with DL4J's own API and saved by its
 * {@code ModelSerializer}) is the stock worker's model: 2 servers and 2 workers train it on MNIST, rank 0
 * exports the trained network as a DL4J zip, and {@code predict} loads that zip with DL4J alone and finds
 * the count the job reported.
 */
class Dl4jModelIT {
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final Pattern FINISHED = Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)");

    @Test
    void aDl4jNetworkTrainsThroughTheServersAndItsZipPredictsTheReportedAccuracy() throws Exception {
        try (LocalCluster cluster = new LocalCluster("dl4j-model")) {
            Path files = cluster.freshDir("user-files");
            Path network = files.resolve("cnn.zip");
            ModelSerializer.writeModel(cnn(), network.toFile(), false);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=ADAM",
                        "--ps.optimizer.learning-rate=0.002", "--ps.consistency.mode=SYNC");
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, "--ps.worker.model=" + network,
                        "--ps.worker.dataset.format=MNIST", "--ps.worker.dataset.path=" + TestPaths.mnist(),
                        "--ps.worker.dataset.train-limit=6000", "--ps.worker.training.batch-size=50",
                        "--ps.worker.training.epochs=1", "--ps.worker.output.model-dir=" + export);
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(5))).as(worker.tail()).isZero();
                assertThat(worker.logText()).contains("model " + network + " with");
            }
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("10000");
            assertThat(Double.parseDouble(job.group(1))).isGreaterThanOrEqualTo(85.0);
            String manifest = Files.readString(export.resolve("model.json"));
            assertThat(manifest).contains("\"format\" : \"dl4j\"", "\"modelFile\" : \"model.zip\"",
                    "\"testCorrect\" : " + job.group(2));
            assertThat(MultiLayerNetwork.load(export.resolve("model.zip").toFile(), false).numParams())
                    .isEqualTo(cnn().numParams());

            Matcher predicted = PredictTool.run(cluster, "--model=" + export,
                    "--data-path=" + TestPaths.mnist());
            assertThat(predicted.group(3)).isEqualTo("10000");
            assertThat(predicted.group(2)).as("DL4J alone on the zip classifies as the job did").isEqualTo(job.group(2));
        }
    }

    /** conv 5x5 x8, max-pool 2, dense 64, softmax 10 over flat 28x28 images, float32, seeded. */
    private static MultiLayerNetwork cnn() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().seed(42).dataType(DataType.FLOAT)
                .weightInit(WeightInit.XAVIER).list()
                .layer(new ConvolutionLayer.Builder(5, 5).nOut(8).activation(Activation.RELU).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2)
                        .build())
                .layer(new DenseLayer.Builder().nOut(64).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(10)
                        .activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(28, 28, 1))
                .build();
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        return net;
    }
}

package com.example.library;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.client.train.SameDiffTrainer;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A user's own training program on jvm-ps: it builds a two-layer network with SameDiff, joins a running job
 * as one of its workers, trains on its shard of MNIST through the servers, evaluates, and (worker 0) writes
 * the trained model and reads it back with plain SameDiff to predict the test set again. The training
 * batches come from the library's MNIST reader, sharded by the trainer ({@code --batches=library}), or
 * from this program's own reader and sharding ({@code --batches=own}). {@code --on-workers=b1,b2} keeps
 * those variables on the workers (averaged among the programs) instead of the servers.
 *
 * <pre>
 * java -cp ... com.example.library.LibraryTraining --scheduler=HOST:PORT --mnist=DIR --out=DIR
 *      [--secret=S (default: $PS_SECURITY_SECRET)] [--epochs=2] [--train-examples=12000]
 *      [--test-examples=2000] [--batch=50] [--hidden=128] [--batches=library|own] [--on-workers=NAME,...]
 * </pre>
 *
 * It prints one line {@code RESULT rank=R steps=S accuracy=A} and, on worker 0,
 * {@code EXPORTED file=F accuracy=A loaded-accuracy=B}; it exits with 1 on any error.
 */
public final class LibraryTraining {
    private LibraryTraining() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        String[] scheduler = require(opts, "scheduler").split(":");
        String secret = opts.getOrDefault("secret", System.getenv("PS_SECURITY_SECRET"));
        if (secret == null) {
            throw new IllegalArgumentException("no cluster secret: pass --secret or set PS_SECURITY_SECRET");
        }
        Path mnist = Path.of(require(opts, "mnist"));
        Path out = Path.of(require(opts, "out"));
        int epochs = Integer.parseInt(opts.getOrDefault("epochs", "2"));
        int trainExamples = Integer.parseInt(opts.getOrDefault("train-examples", "12000"));
        int testExamples = Integer.parseInt(opts.getOrDefault("test-examples", "2000"));
        int batch = Integer.parseInt(opts.getOrDefault("batch", "50"));
        int hidden = Integer.parseInt(opts.getOrDefault("hidden", "128"));
        boolean ownBatches = "own".equals(opts.getOrDefault("batches", "library"));

        ClientSettings settings = ClientSettings.of(scheduler[0], Integer.parseInt(scheduler[1]), secret);
        try (PsJob job = PsJob.join(settings)) {
            SameDiffGraph graph = SameDiffGraph.of(network(hidden, 42), GraphNames.DEFAULT, "two-layer network");
            DataSet test = Mnist.read(mnist, "t10k", testExamples);
            SameDiffTrainer trainer = new SameDiffTrainer(job, graph);
            if (opts.containsKey("on-workers")) {
                // these variables stay on the workers, kept equal by an AllReduce among the programs
                trainer.placeOnWorkers(opts.get("on-workers").split(","));
            }
            SameDiffTrainer.Result result;
            if (ownBatches) {
                // batches this program cuts itself: any Iterable<DataSet> (or a DataSetIterator)
                DataSet train = Mnist.read(mnist, "train", trainExamples);
                result = trainer.fit(Mnist.shard(train, job.rank(), job.workers(), batch), epochs);
            } else {
                // the library's reader and sharding: the trainer gives each worker its share, reshuffled per epoch
                Examples train = MnistDataset.load(mnist, MnistSplit.TRAIN, trainExamples);
                result = trainer.fit(train, batch, epochs, 42);
            }
            SameDiffTrainer.Evaluation evaluation = trainer.evaluate(test.batchBy(500));
            System.out.printf(Locale.ROOT, "RESULT rank=%d steps=%d loss=%.4f accuracy=%.4f seconds=%.1f%n",
                    job.rank(), result.steps(), result.lastLoss(), evaluation.accuracy(), result.seconds());
            job.reportResult(evaluation.correct(), evaluation.examples(), result.seconds());

            if (job.rank() == 0) {
                Files.createDirectories(out);
                Path file = out.resolve("model.sd");
                trainer.save(file);
                double loaded = accuracyOfFile(file, test);
                System.out.printf(Locale.ROOT, "EXPORTED file=%s accuracy=%.4f loaded-accuracy=%.4f%n", file,
                        evaluation.accuracy(), loaded);
            }
        } catch (RuntimeException e) {
            System.err.println("training failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /** input [n, 784] -> relu(hidden) -> softmax(10); mean softmax cross-entropy against label [n, 10]. */
    static SameDiff network(int hidden, long seed) {
        Nd4j.getRandom().setSeed(seed);
        SameDiff sd = SameDiff.create();
        SDVariable input = sd.placeHolder("input", DataType.FLOAT, -1, 784);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 10);
        SDVariable w1 = sd.var("w1", Nd4j.randn(DataType.FLOAT, 784, hidden).muli(Math.sqrt(2.0 / 784)));
        SDVariable b1 = sd.var("b1", Nd4j.zeros(DataType.FLOAT, 1, hidden));
        SDVariable w2 = sd.var("w2", Nd4j.randn(DataType.FLOAT, hidden, 10).muli(Math.sqrt(1.0 / hidden)));
        SDVariable b2 = sd.var("b2", Nd4j.zeros(DataType.FLOAT, 1, 10));
        SDVariable h = sd.nn().relu(input.mmul(w1).add(b1), 0);
        SDVariable logits = h.mmul(w2).add(b2);
        sd.nn().softmax("probabilities", logits, 1);
        sd.loss().softmaxCrossEntropy("loss", label, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        return sd;
    }

    /** What a program that knows nothing of jvm-ps gets from the file: SameDiff's own load and output. */
    static double accuracyOfFile(Path file, DataSet test) {
        SameDiff loaded = SameDiff.load(file.toFile(), false);
        INDArray probabilities = loaded.output(Map.of("input", test.getFeatures()), "probabilities")
                .get("probabilities");
        INDArray correct = probabilities.argMax(1).eq(test.getLabels().argMax(1));
        return correct.castTo(DataType.INT64).sumNumber().doubleValue() / test.numExamples();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("arguments are --name=value, got " + arg);
            }
            opts.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        return opts;
    }

    private static String require(Map<String, String> opts, String name) {
        String value = opts.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }
}

package io.jvmps.cluster;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One epoch over a CSV file larger than the worker's heap: MNIST's training images as raw pixels, repeated
 * until the file holds {@code -Dcsv.bytes} (default 3 GB), trained by 1 server + 1 worker with
 * {@code -Xmx512m} (softmax regression, 256 rows per step). Reports the worker's index pass and epoch in rows
 * per second against {@code cat FILE > /dev/null} of the same file in the same run, and the worker's peak
 * resident memory (VmHWM). The file is deleted afterwards.
 */
@Tag("benchmark")
class CsvStreamingBenchmark {
    private static final long BYTES = (long) Double.parseDouble(System.getProperty("csv.bytes", "3e9"));
    private static final int BATCH = 256;
    private static final Pattern INDEXED = Pattern.compile("Indexed (\\S+): (\\d+) rows of \\d+ features, \\d+ classes, "
            + "in ([0-9.]+) s");
    private static final Pattern FINISHED = Pattern.compile("Training finished: (\\d+) steps in ([0-9.]+) s");

    @Test
    void oneEpochOverAFileLargerThanTheHeap() throws Exception {
        try (LocalCluster cluster = new LocalCluster("csv-streaming")) {
            Path dir = cluster.freshDir("data");
            Path train = dir.resolve("train.csv");
            long rows = write(train, MnistSplit.TRAIN, BYTES);
            Path test = dir.resolve("test.csv");
            write(test, MnistSplit.TEST, 1);
            long size = Files.size(train);
            try {
                double cat = catSeconds(train);
                NodeProcess scheduler = cluster.startScheduler(1, 1);
                cluster.startServer(0, 1, 1, "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.05");
                NodeProcess worker = cluster.startWorkerWithHeap(0, 1, 1, "-Xmx512m", "--ps.worker.model=SOFTMAX",
                        "--ps.worker.dataset.format=CSV", "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + test,
                        "--ps.worker.dataset.csv.label=digit", "--ps.worker.training.epochs=1", "--ps.worker.training.batch-size=" + BATCH,
                        "--ps.worker.training.log-interval=1000");
                long peakKb = 0;
                long deadline = System.nanoTime() + Duration.ofMinutes(40).toNanos();
                while (worker.process().isAlive() && System.nanoTime() < deadline) {
                    peakKb = Math.max(peakKb, vmHwmKb(worker.process().pid()));
                    NodeProcess.until(Duration.ofSeconds(1), () -> !worker.process().isAlive());
                }
                assertThat(worker.awaitExit(Duration.ofMinutes(1))).as(worker.tail()).isZero();
                Matcher indexed = INDEXED.matcher(worker.logText());
                assertThat(indexed.find()).as(worker.tail()).isTrue();
                Matcher finished = FINISHED.matcher(worker.logText());
                assertThat(finished.find()).as(worker.tail()).isTrue();
                assertThat(Long.parseLong(indexed.group(2))).isEqualTo(rows);
                double indexSeconds = Double.parseDouble(indexed.group(3));
                double epochSeconds = Double.parseDouble(finished.group(2));
                Matcher job = scheduler.awaitLog(Pattern.compile("Job finished: test accuracy ([0-9.]+)%"),
                        Duration.ofSeconds(30));
                BenchmarkReport.record(String.format(Locale.ROOT, "CSV streaming: %.2f GB, %d rows of 784 features; "
                                + "cat %.1f s (%.0f rows/s); worker -Xmx512m: index pass %.1f s (%.0f rows/s, %.2fx cat's "
                                + "time), one epoch of %d-row steps %.1f s (%.0f rows/s), peak RSS %d MB; softmax test "
                                + "accuracy %s %%", size / 1e9, rows, cat, rows / cat, indexSeconds, rows / indexSeconds,
                        indexSeconds / cat, BATCH, epochSeconds, rows / epochSeconds, peakKb / 1024, job.group(1)));
                assertThat(peakKb * 1024).isLessThan(size);
            } finally {
                Files.deleteIfExists(train);
            }
        }
    }

    /** Writes the split's images as raw pixels and a digit column, repeated until the file has {@code bytes}. */
    private static long write(Path file, MnistSplit split, long bytes) throws IOException {
        LabeledData data = MnistDataset.load(TestPaths.mnist(), split, 0);
        float[][] pixels = data.features().toFloatMatrix();
        long[] labels = data.labels().argMax(1).toLongVector();
        String[] lines = new String[pixels.length];
        for (int r = 0; r < pixels.length; r++) {
            StringBuilder line = new StringBuilder(4 * 785);
            for (float p : pixels[r]) {
                line.append(Math.round(p * 255)).append(',');
            }
            lines[r] = line.append(labels[r]).append('\n').toString();
        }
        long rows = 0;
        long written = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            StringBuilder header = new StringBuilder();
            for (int c = 0; c < 784; c++) {
                header.append('p').append(c).append(',');
            }
            out.write(header.append("digit\n").toString());
            do {
                for (String line : lines) {
                    out.write(line);
                    written += line.length();
                    rows++;
                }
            } while (written < bytes);
        }
        return rows;
    }

    /** @return the seconds {@code cat FILE > /dev/null} takes: the baseline of the file-reading benchmarks */
    static double catSeconds(Path file) throws Exception {
        long start = System.nanoTime();
        Process cat = new ProcessBuilder("cat", file.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(cat.waitFor()).isZero();
        return (System.nanoTime() - start) / 1e9;
    }

    private static long vmHwmKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended between two readings
        }
        return 0;
    }
}

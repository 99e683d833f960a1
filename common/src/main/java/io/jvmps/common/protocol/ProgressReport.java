package io.jvmps.common.protocol;

/**
 * A worker's training progress, posted to {@code POST /api/v1/progress} (JSON).
 *
 * @param nodeId     the reporting worker's id
 * @param epoch      1-based epoch
 * @param step       1-based step within the epoch
 * @param globalStep 0-based step counter over the whole job
 * @param loss       mean training loss of the last batch
 * @param imagesPerSecond the worker's recent throughput, samples per second
 * @param bytesPushed tensor bytes the worker pushed so far (0 from workers that do not report it)
 * @param bytesPulled tensor bytes the worker pulled so far (0 from workers that do not report it)
 */
public record ProgressReport(String nodeId, int epoch, int step, long globalStep, double loss, double imagesPerSecond,
                             long bytesPushed, long bytesPulled) {
}

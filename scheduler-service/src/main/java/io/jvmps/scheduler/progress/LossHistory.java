package io.jvmps.scheduler.progress;

import io.jvmps.common.protocol.ProgressReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each worker's training curve as the scheduler received it: one {@link Point} per progress report,
 * with push and pull throughput computed from consecutive reports. At most {@code capacity} points
 * per worker: when full, every second point is dropped, so the whole run stays visible at a coarser
 * resolution. Not thread-safe: guarded by its owner, {@link JobTracker}.
 */
public final class LossHistory {

    /**
     * @param timeMillis      when the report arrived (scheduler clock)
     * @param globalStep      the worker's step counter
     * @param loss            the reported loss
     * @param samplesPerSecond the worker's reported throughput
     * @param pushBytesPerSecond tensor bytes pushed per second since the previous report
     * @param pullBytesPerSecond tensor bytes pulled per second since the previous report
     */
    public record Point(long timeMillis, long globalStep, double loss, double samplesPerSecond,
                        double pushBytesPerSecond, double pullBytesPerSecond) {
    }

    private final int capacity;
    private final Map<Integer, List<Point>> byRank = new TreeMap<>();
    private final Map<Integer, ProgressReport> previous = new TreeMap<>();
    private final Map<Integer, Long> previousTime = new TreeMap<>();

    /** @param capacity most points kept per worker, >= 2 */
    public LossHistory(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be >= 2, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds a worker's report received at {@code timeMillis}. */
    public void add(int rank, ProgressReport report, long timeMillis) {
        ProgressReport before = previous.get(rank);
        double push = 0;
        double pull = 0;
        if (before != null && timeMillis > previousTime.get(rank)) {
            double seconds = (timeMillis - previousTime.get(rank)) / 1000.0;
            push = Math.max(0, report.bytesPushed() - before.bytesPushed()) / seconds;
            pull = Math.max(0, report.bytesPulled() - before.bytesPulled()) / seconds;
        }
        previous.put(rank, report);
        previousTime.put(rank, timeMillis);
        List<Point> points = byRank.computeIfAbsent(rank, r -> new ArrayList<>());
        if (points.size() >= capacity) {
            List<Point> thinned = new ArrayList<>(capacity);
            for (int i = 0; i < points.size(); i += 2) {
                thinned.add(points.get(i));
            }
            points.clear();
            points.addAll(thinned);
        }
        points.add(new Point(timeMillis, report.globalStep(), report.loss(), report.imagesPerSecond(), push, pull));
    }

    /** @return a copy of every worker's points, by rank, oldest first */
    public Map<Integer, List<Point>> snapshot() {
        Map<Integer, List<Point>> copy = new TreeMap<>();
        byRank.forEach((rank, points) -> copy.put(rank, List.copyOf(points)));
        return copy;
    }
}

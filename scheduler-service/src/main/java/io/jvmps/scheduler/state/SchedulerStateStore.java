package io.jvmps.scheduler.state;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.scheduler.config.SchedulerProperties;
import io.jvmps.scheduler.data.DataPartitions;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeRegistry;
import jakarta.annotation.PostConstruct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Keeps the job's state in {@code ps.scheduler.state-dir} so that it survives the scheduler's own crash and
 * restart: ranks and node ids, the data partitions leased and finished, the workers' progress and results, and
 * a job failure. {@link #save()} writes the whole state (a few KB) to {@value #FILE} atomically and durably
 * (a temporary file forced to disk, then renamed); the REST handlers call it after every change and before they
 * answer, so nothing a node was told is lost. At start-up, before the first request, {@link #load()} takes a
 * saved state back, unless that job had FINISHED (then a new job starts and the old file is moved aside). With
 * no directory set the state lives in memory only, and a restarted scheduler learns
 * the ranks again from the nodes' re-registrations. Thread-safe (saves are serialised).
 */
@Component
public class SchedulerStateStore {
    /** The state file's name in the directory. */
    public static final String FILE = "scheduler-state.json";
    private static final Logger log = LoggerFactory.getLogger(SchedulerStateStore.class);
    private static final int FORMAT = 1;

    /**
     * Everything that is kept.
     *
     * @param format   the file's format version
     * @param state    the job's state when saved ({@code RUNNING}, {@code FINISHED}, ...)
     * @param registry nodes, ranks, epoch
     * @param data     the partition queue
     * @param job      progress, results, failure
     */
    record Snapshot(int format, String state, NodeRegistry.Saved registry, DataPartitions.Saved data,
                    JobTracker.Saved job) {
    }

    private final Path dir;
    /** Owner read/write only on POSIX file systems (the file holds node tokens); null elsewhere. */
    private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY =
            java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"))
                    : null;

    private final NodeRegistry registry;
    private final DataPartitions data;
    private final JobTracker job;
    private final JsonMapper json = JsonMapper.builder().build();

    /** Wires the store; {@code ps.scheduler.state-dir} empty keeps everything in memory. */
    public SchedulerStateStore(SchedulerProperties properties, NodeRegistry registry, DataPartitions data,
                               JobTracker job) {
        this.dir = properties.stateDir() == null || properties.stateDir().isBlank() ? null
                : Path.of(properties.stateDir());
        this.registry = registry;
        this.data = data;
        this.job = job;
    }

    /** Takes back the saved state, if any (called once, before the web server takes requests). */
    @PostConstruct
    public void load() {
        if (dir == null) {
            log.info("The job's state is kept in memory only (set ps.scheduler.state-dir to keep it across a restart)");
            return;
        }
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            log.info("No saved job state in {}: starting a new job; its state is kept there", dir);
            return;
        }
        Snapshot saved;
        try {
            saved = json.readValue(file.toFile(), Snapshot.class);
        } catch (JacksonException e) {
            throw new IllegalStateException("ps.scheduler.state-dir " + dir + ": " + FILE + " cannot be read ("
                    + e.getOriginalMessage() + "); move it away to start a new job", e);
        }
        if (saved.format() != FORMAT) {
            throw new IllegalStateException("ps.scheduler.state-dir " + dir + ": " + FILE + " has format "
                    + saved.format() + ", this scheduler reads " + FORMAT + "; move it away to start a new job");
        }
        if ("FINISHED".equals(saved.state())) {
            Path aside = dir.resolve("scheduler-state-finished-" + System.currentTimeMillis() + ".json");
            try {
                Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new IllegalStateException("ps.scheduler.state-dir " + dir + ": cannot move the finished job's "
                        + FILE + " aside: " + e.getMessage(), e);
            }
            log.info("The job saved in {} had FINISHED: starting a new job (its state is kept as {})", dir, aside);
            return;
        }
        registry.restore(saved.registry());
        data.restore(saved.data());
        job.restore(saved.job());
        log.info("Restored the job's state from {}: {} nodes, cluster epoch now {}, {} data partitions done and {} "
                + "leased, {} results{}", file, saved.registry().nodes().size(), registry.epoch(),
                saved.data().done().size(), saved.data().leased().size(), saved.job().results().size(),
                saved.job().failure() == null ? "" : "; the job FAILED: " + saved.job().failure());
    }

    /**
     * Writes the current state, if a directory is set.
     *
     * @throws PsException INTERNAL naming the directory when it cannot be written (the change stays in memory
     *                     and goes out with the next save; the caller's request fails, so a node retries it)
     */
    public synchronized void save() {
        // the file holds every node's token: readable by the scheduler's user only, where the file system allows
        if (dir == null) {
            return;
        }
        Snapshot snapshot = new Snapshot(FORMAT, job.state().name(), registry.save(), data.save(), job.save());
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(tmp);
            try (FileChannel channel = OWNER_ONLY == null
                    ? FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                    : FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    OWNER_ONLY)) {
                ByteBuffer bytes = ByteBuffer.wrap(json.writeValueAsBytes(snapshot));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | JacksonException e) {
            log.warn("Could not save the job's state to {}: {}", dir, e.toString());
            throw new PsException(ErrorCode.INTERNAL, "the scheduler could not save the job's state to "
                    + "ps.scheduler.state-dir " + dir + ": " + e.getMessage());
        }
    }
}

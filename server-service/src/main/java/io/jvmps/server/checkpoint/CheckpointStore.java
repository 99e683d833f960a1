package io.jvmps.server.checkpoint;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * Checkpoint files under one directory, shared by every server of the job:
 * {@code step-<12 digits>/part-<rank>-of-<servers>.bin} plus its {@code .json} {@link PartManifest}.
 * A part is written to a temporary file, forced to disk, renamed into place, and only then given its
 * manifest (written the same way), so a process killed mid-write leaves at most a stray temporary
 * file and every older checkpoint intact. A step is complete when every rank's manifest is there and
 * every part matches its size and checksum. Thread-safe for one writer per rank.
 */
public final class CheckpointStore {
    private static final Logger log = LoggerFactory.getLogger(CheckpointStore.class);
    private static final String STEP_PREFIX = "step-";
    /** Keeps no sparse row: a checkpoint's tables are read for their declarations and step only. */
    public static final LongPredicate NO_ROWS = id -> false;

    private final Path root;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    /** Steps whose parts were read and matched their manifests (this process's own reads). */
    private final java.util.Set<Long> verified = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param root  the checkpoint directory (created on first write)
     * @param clock stamps manifests
     */
    public CheckpointStore(Path root, Clock clock) {
        this.root = root;
        this.clock = clock;
    }

    /** @return the directory */
    public Path root() {
        return root;
    }

    /**
     * Writes one part atomically and durably. A write that fails (a full disk, say) removes what it wrote, the
     * step's directory too when nothing else is in it, so it leaves nothing that looks like a checkpoint.
     *
     * @return its manifest
     * @throws IOException what failed; the files it wrote are gone
     */
    public PartManifest write(CheckpointPart part) throws IOException {
        Path dir = root.resolve(stepDir(part.step()));
        boolean created = !Files.isDirectory(dir);
        String name = "part-" + part.rank() + "-of-" + part.servers();
        try {
            Files.createDirectories(dir);
            return writeFiles(part, dir, name);
        } catch (IOException | RuntimeException e) {
            for (String file : List.of(name + ".json", name + ".json.tmp", name + ".bin", name + ".bin.tmp")) {
                try {
                    Files.deleteIfExists(dir.resolve(file));
                } catch (IOException ignored) {
                    // reported with the write's own failure below
                }
            }
            if (created) {
                try {
                    Files.deleteIfExists(dir); // only when empty: another server's part stays
                } catch (IOException notEmptyOrGone) {
                    // another server wrote its part there meanwhile
                }
            }
            throw e;
        }
    }

    private PartManifest writeFiles(CheckpointPart part, Path dir, String name) throws IOException {
        Path bin = dir.resolve(name + ".bin");
        Path tmp = dir.resolve(name + ".bin.tmp");
        CRC32C crc = new CRC32C();
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream raw = Channels.newOutputStream(channel);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new CheckedOutputStream(raw, crc),
                    1 << 16));
            CheckpointFormat.write(part, out);
            out.flush();
            channel.force(true);
        }
        long bytes = Files.size(tmp);
        Files.move(tmp, bin, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        PartManifest manifest = new PartManifest(CheckpointFormat.VERSION, part.step(), part.rank(), part.servers(),
                bin.getFileName().toString(), bytes, String.format("%08x", crc.getValue()), part.slices().size(),
                part.elements(), clock.instant().toString());
        Path manifestTmp = dir.resolve(name + ".json.tmp");
        try (FileChannel channel = FileChannel.open(manifestTmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(java.nio.ByteBuffer.wrap(json.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest)));
            channel.force(true);
        }
        Files.move(manifestTmp, dir.resolve(name + ".json"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(dir);
        return manifest;
    }

    /**
     * @return the newest complete, verified checkpoint, if any; damaged or unfinished newer ones are
     *         skipped with a warning naming what is wrong
     */
    public Optional<Checkpoint> latestComplete() throws IOException {
        return latestComplete(id -> true);
    }

    /**
     * {@link #latestComplete()} holding only the sparse rows {@code keepRow} accepts ({@link #NO_ROWS}: the
     * tables' declarations without rows).
     */
    public Optional<Checkpoint> latestComplete(LongPredicate keepRow) throws IOException {
        for (long step : stepsNewestFirst()) {
            try {
                return Optional.of(load(step, keepRow));
            } catch (IOException e) {
                log.warn("Checkpoint step {} in {} is not usable, trying an older one: {}", step, root, e.getMessage());
            }
        }
        return Optional.empty();
    }

    /**
     * Reads and verifies every part of one step.
     *
     * @throws IOException naming the missing or damaged part
     */
    public Checkpoint load(long step) throws IOException {
        return load(step, id -> true);
    }

    /**
     * Reads and verifies every part of one step, holding only the sparse rows {@code keepRow} accepts.
     *
     * @throws IOException naming the missing or damaged part
     */
    public Checkpoint load(long step, LongPredicate keepRow) throws IOException {
        Path dir = root.resolve(stepDir(step));
        List<PartManifest> manifests = manifests(dir);
        if (manifests.isEmpty()) {
            throw new IOException("no finished part in " + dir);
        }
        int servers = manifests.get(0).servers();
        Map<Integer, PartManifest> byRank = new HashMap<>();
        for (PartManifest m : manifests) {
            if (m.servers() == servers) {
                byRank.put(m.rank(), m);
            }
        }
        List<CheckpointPart> parts = new ArrayList<>(servers);
        for (int rank = 0; rank < servers; rank++) {
            PartManifest m = byRank.get(rank);
            if (m == null) {
                throw new IOException("part " + rank + " of " + servers + " is missing in " + dir
                        + " (that server did not finish writing it)");
            }
            parts.add(readVerified(dir, m, keepRow));
        }
        return new Checkpoint(step, dir, parts);
    }

    /**
     * Deletes all but the newest {@code keep} complete checkpoints that verify (every part's size and checksum
     * match its manifest), and unfinished or damaged ones older than the newest of those; a damaged one newer
     * than every good one is left for inspection (a restore skips it). So a damaged newest checkpoint never
     * makes the last good one be deleted. A step verified once is not read again. Failures are logged, never
     * thrown; steps that other servers of the job delete concurrently (they share the directory and prune too)
     * are skipped.
     */
    public void prune(int keep) {
        List<Long> steps;
        try {
            steps = stepsNewestFirst();
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not list checkpoints to prune in {}: {}", root, e.getMessage());
            return;
        }
        int good = 0;
        for (long step : steps) {
            Path dir = root.resolve(stepDir(step));
            boolean usable;
            try {
                usable = isComplete(dir) && verifies(step, dir);
            } catch (IOException | UncheckedIOException e) {
                continue; // another server is pruning it right now
            }
            if (usable && good < keep) {
                good++;
            } else if (good > 0) {
                deleteTree(dir);
                verified.remove(step);
            }
        }
    }

    /** @return true when every part's data file has the size and checksum its manifest gives (logged if not) */
    private boolean verifies(long step, Path dir) throws IOException {
        if (verified.contains(step)) {
            return true;
        }
        for (PartManifest m : manifests(dir)) {
            Path bin = dir.resolve(m.file());
            CRC32C crc = new CRC32C();
            long size = 0;
            try (InputStream in = Files.newInputStream(bin)) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0; size += n) {
                    crc.update(buffer, 0, n);
                }
            }
            String actual = String.format("%08x", crc.getValue());
            if (size != m.bytes() || !actual.equals(m.crc32c())) {
                log.warn("Checkpoint step {} is damaged: {} has {} bytes and checksum {}, its manifest says {} and {}; "
                        + "it does not count as a checkpoint to keep", step, bin, size, actual, m.bytes(), m.crc32c());
                return false;
            }
        }
        verified.add(step);
        return true;
    }

    /** @return steps that have a directory, newest first */
    public List<Long> stepsNewestFirst() throws IOException {
        List<Long> steps = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return steps;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, STEP_PREFIX + "*")) {
            for (Path d : dirs) {
                try {
                    steps.add(Long.parseLong(d.getFileName().toString().substring(STEP_PREFIX.length())));
                } catch (NumberFormatException ignored) {
                    // not ours
                }
            }
        }
        steps.sort(Comparator.reverseOrder());
        return steps;
    }

    static String stepDir(long step) {
        return String.format("%s%012d", STEP_PREFIX, step);
    }

    private boolean isComplete(Path dir) throws IOException {
        List<PartManifest> manifests = manifests(dir);
        if (manifests.isEmpty()) {
            return false;
        }
        int servers = manifests.get(0).servers();
        return manifests.stream().filter(m -> m.servers() == servers).map(PartManifest::rank).distinct().count()
                == servers;
    }

    private List<PartManifest> manifests(Path dir) throws IOException {
        List<PartManifest> all = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return all;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "part-*.json")) {
            for (Path f : files) {
                try {
                    all.add(json.readValue(f.toFile(), PartManifest.class));
                } catch (JacksonException e) {
                    if (Files.exists(f)) {
                        log.warn("Unreadable checkpoint manifest {}: {}", f, e.getMessage());
                    } // else another server pruned the step while we listed it
                }
            }
        }
        all.sort(Comparator.comparingInt(PartManifest::rank));
        return all;
    }

    private CheckpointPart readVerified(Path dir, PartManifest m, LongPredicate keepRow) throws IOException {
        Path bin = dir.resolve(m.file());
        long size = Files.size(bin);
        if (size != m.bytes()) {
            throw new IOException(bin + " has " + size + " bytes, its manifest says " + m.bytes());
        }
        CRC32C crc = new CRC32C();
        CheckpointPart part;
        try (InputStream raw = Files.newInputStream(bin);
             DataInputStream in = new DataInputStream(new BufferedInputStream(new CheckedInputStream(raw, crc),
                     1 << 16))) {
            part = CheckpointFormat.read(in, keepRow);
            if (in.read() != -1) {
                throw new IOException(bin + " has bytes after its end marker");
            }
        }
        String actual = String.format("%08x", crc.getValue());
        if (!actual.equals(m.crc32c())) {
            throw new IOException(bin + " has checksum " + actual + ", its manifest says " + m.crc32c());
        }
        if (part.step() != m.step() || part.rank() != m.rank() || part.servers() != m.servers()) {
            throw new IOException(bin + " holds step " + part.step() + " part " + part.rank() + " of "
                    + part.servers() + ", its manifest says step " + m.step() + " part " + m.rank() + " of "
                    + m.servers());
        }
        return part;
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // some file systems cannot open a directory; the renames are still atomic there
        }
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (NoSuchFileException ignored) {
                    // another server pruned it first
                }
            }
        } catch (NoSuchFileException e) {
            // another server pruned it first
        } catch (IOException | UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException) && Files.exists(dir)) {
                log.warn("Could not delete old checkpoint {}: {}", dir, e.getMessage());
            }
        }
    }
}

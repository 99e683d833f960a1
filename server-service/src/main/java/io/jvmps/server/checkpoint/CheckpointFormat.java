package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.server.sparse.SparseRows;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * The binary layout of one checkpoint part (big-endian header fields, little-endian float runs):
 * <pre>
 * int   magic 'PSCK'      int  format version (1)
 * long  step              int  rank            int servers
 * UTF   optimizer         int  state slots
 * int   params            per param: UTF name, int rank, long[rank] dims
 * int   slices            per slice: int paramIndex, long offset, int length, long version,
 *                                    float[length] values, then state slots x float[length]
 * int   ledger entries    per entry: int sender, long tag, long step, then the ack: int server,
 *                                    long step, int slices, long elements          (format 2 and later)
 * int   sparse tables     per table: UTF name, int dim, long seed, float initScale, UTF optimizer
 *                                    ("" = the servers' default), long initRows, int state slots,
 *                                    long updates, int rows, then per row: long id, int update count,
 *                                    float[dim x (1 + state slots)] values then state  (format 3 and later);
 *                                    format 5: after initRows int admitAfter, long evictAfterSteps,
 *                                    boolean evictWhenFull, and state floats per row in place of state
 *                                    slots; a table
 *                                    that evicts has long last-touched clock after each row's update count;
 *                                    one that admits ends with int n, byte[n] sketch counters, long additions
 * int   worker clocks     per worker rank: long clock (the first step, GEO: round, of that rank not in
 *                                    this part's slices; none in SYNC)                  (format 4 and later)
 * int   end magic 'PSCE'
 * </pre>
 * Reading checks every count against the declared model before allocating, so a damaged file fails
 * with a message instead of a huge allocation. Stateless and thread-safe.
 */
public final class CheckpointFormat {
    static final int MAGIC = 0x5053434B;
    static final int END = 0x50534345;
    static final int VERSION = 5;
    private static final int MAX_STATE_SLOTS = 16;
    private static final int MAX_SKETCH_BYTES = 1 << 26;
    private static final int MAX_PARAMS = 1 << 20;
    private static final int FLOAT_RUN = 16 * 1024;
    private static final int MAX_WORKERS = 1 << 16;

    private CheckpointFormat() {
    }

    /** Writes the part; the caller closes the stream. */
    public static void write(CheckpointPart part, DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeLong(part.step());
        out.writeInt(part.rank());
        out.writeInt(part.servers());
        out.writeUTF(part.optimizer());
        out.writeInt(part.stateSlots());
        out.writeInt(part.params().size());
        for (ParamSpec p : part.params()) {
            out.writeUTF(p.name());
            out.writeInt(p.shape().length);
            for (long d : p.shape()) {
                out.writeLong(d);
            }
        }
        out.writeInt(part.slices().size());
        byte[] run = new byte[FLOAT_RUN * 4];
        for (SliceCopy s : part.slices()) {
            out.writeInt(s.paramIndex());
            out.writeLong(s.offset());
            out.writeInt(s.length());
            out.writeLong(s.version());
            writeFloats(out, s.values(), run);
            for (float[] slot : s.state()) {
                writeFloats(out, slot, run);
            }
        }
        out.writeInt(part.ledger().size());
        for (LedgerEntry e : part.ledger()) {
            out.writeInt(e.sender());
            out.writeLong(e.tag());
            out.writeLong(e.step());
            out.writeInt(e.ack().server());
            out.writeLong(e.ack().step());
            out.writeInt(e.ack().slices());
            out.writeLong(e.ack().elements());
        }
        out.writeInt(part.sparse().size());
        for (SparseRows t : part.sparse()) {
            writeSparse(out, t, run);
        }
        out.writeInt(part.clocks().size());
        for (long c : part.clocks()) {
            out.writeLong(c);
        }
        out.writeInt(END);
    }

    /**
     * Reads one part with every sparse row.
     *
     * @throws IOException with a message naming the damage when the bytes are not a valid part
     */
    public static CheckpointPart read(DataInputStream in) throws IOException {
        return read(in, id -> true);
    }

    /**
     * Reads one part, keeping only the sparse rows whose id {@code keepRow} accepts (the others are read
     * and checked, never held), so a server restores its share of a table larger than its heap.
     *
     * @throws IOException with a message naming the damage when the bytes are not a valid part
     */
    public static CheckpointPart read(DataInputStream in, LongPredicate keepRow) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a checkpoint part (bad magic)");
        }
        int version = in.readInt();
        if (version < 1 || version > VERSION) {
            throw new IOException("checkpoint format version " + version + " is not supported (this build reads "
                    + VERSION + ")");
        }
        long step = in.readLong();
        int rank = in.readInt();
        int servers = in.readInt();
        String optimizer = in.readUTF();
        int slots = in.readInt();
        check(step >= 0 && servers >= 1 && rank >= 0 && rank < servers, "bad header: step " + step + ", rank "
                + rank + " of " + servers);
        check(slots >= 0 && slots <= MAX_STATE_SLOTS, "bad state slot count " + slots);
        int paramCount = in.readInt();
        check(paramCount >= 0 && paramCount <= MAX_PARAMS, "bad parameter count " + paramCount);
        List<ParamSpec> params = new ArrayList<>(paramCount);
        for (int i = 0; i < paramCount; i++) {
            String name = in.readUTF();
            int dims = in.readInt();
            check(dims >= 0 && dims <= 32, "parameter " + name + " has rank " + dims);
            long[] shape = new long[dims];
            for (int d = 0; d < dims; d++) {
                shape[d] = in.readLong();
            }
            try {
                params.add(new ParamSpec(name, shape));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        int sliceCount = in.readInt();
        check(sliceCount >= 0, "bad slice count " + sliceCount);
        List<SliceCopy> slices = new ArrayList<>();
        byte[] run = new byte[FLOAT_RUN * 4];
        for (int i = 0; i < sliceCount; i++) {
            int p = in.readInt();
            long offset = in.readLong();
            int length = in.readInt();
            long sliceVersion = in.readLong();
            check(p >= 0 && p < paramCount, "slice " + i + " names parameter " + p + " of " + paramCount);
            long elements = params.get(p).elements();
            check(offset >= 0 && length >= 1 && offset + length <= elements, "slice " + i + " [" + offset + ", +"
                    + length + ") lies outside " + params.get(p));
            float[] values = readFloats(in, length, run);
            float[][] state = new float[slots][];
            for (int s = 0; s < slots; s++) {
                state[s] = readFloats(in, length, run);
            }
            slices.add(new SliceCopy(p, offset, values, state, sliceVersion));
        }
        List<LedgerEntry> ledger = new ArrayList<>();
        if (version >= 2) {
            int entries = in.readInt();
            check(entries >= 0 && entries <= MAX_PARAMS, "bad ledger size " + entries);
            for (int i = 0; i < entries; i++) {
                int sender = in.readInt();
                long tag = in.readLong();
                long pushStep = in.readLong();
                ledger.add(new LedgerEntry(sender, tag, pushStep, new io.jvmps.common.protocol.PushAck(in.readInt(),
                        in.readLong(), in.readInt(), in.readLong())));
            }
        }
        List<SparseRows> sparse = new ArrayList<>();
        if (version >= 3) {
            int tables = in.readInt();
            check(tables >= 0 && tables <= MAX_PARAMS, "bad sparse table count " + tables);
            for (int i = 0; i < tables; i++) {
                sparse.add(readSparse(in, run, keepRow, version));
            }
        }
        List<Long> clocks = new ArrayList<>();
        if (version >= 4) {
            int workers = in.readInt();
            check(workers >= 0 && workers <= MAX_WORKERS, "bad worker clock count " + workers);
            for (int i = 0; i < workers; i++) {
                long c = in.readLong();
                check(c >= 0, "worker " + i + " has clock " + c);
                clocks.add(c);
            }
        }
        check(in.readInt() == END, "missing end marker");
        return new CheckpointPart(step, rank, servers, optimizer, slots, params, slices, ledger, sparse, clocks);
    }

    private static void writeSparse(DataOutputStream out, SparseRows t, byte[] run) throws IOException {
        SparseTableSpec spec = t.spec();
        out.writeUTF(spec.name());
        out.writeInt(spec.dim());
        out.writeLong(spec.seed());
        out.writeFloat(spec.initScale());
        out.writeUTF(spec.optimizer() == null ? "" : spec.optimizer());
        out.writeLong(spec.initRows());
        out.writeInt(spec.lifecycle().admitAfter());
        out.writeLong(spec.lifecycle().evictAfterSteps());
        out.writeBoolean(spec.lifecycle().evictWhenFull());
        out.writeInt(t.stateFloats());
        out.writeLong(t.updates());
        out.writeInt(t.rows());
        boolean clocks = spec.lifecycle().tracksIdleness();
        for (int r = 0; r < t.rows(); r++) {
            out.writeLong(t.ids()[r]);
            out.writeInt(t.steps()[r]);
            if (clocks) {
                out.writeLong(t.touched() == null ? 0 : t.touched()[r]);
            }
            writeFloats(out, t.data(), r * t.stride(), t.stride(), run);
        }
        if (spec.lifecycle().admits()) {
            byte[] counters = t.admission() == null ? new byte[0] : t.admission().counters();
            out.writeInt(counters.length);
            out.write(counters);
            out.writeLong(t.admission() == null ? 0 : t.admission().additions());
        }
    }

    private static SparseRows readSparse(DataInputStream in, byte[] run, LongPredicate keepRow, int version)
            throws IOException {
        String name = in.readUTF();
        int dim = in.readInt();
        long seed = in.readLong();
        float initScale = in.readFloat();
        String optimizer = in.readUTF();
        long initRows = in.readLong();
        SparseTableSpec spec;
        try {
            io.jvmps.common.sparse.RowLifecycle lifecycle = version >= 5
                    ? new io.jvmps.common.sparse.RowLifecycle(in.readInt(), in.readLong(), in.readBoolean())
                    : io.jvmps.common.sparse.RowLifecycle.KEEP_ALL;
            spec = new SparseTableSpec(name, dim, seed, initScale, optimizer.isEmpty() ? null : optimizer, initRows,
                    lifecycle);
        } catch (RuntimeException e) {
            throw new IOException("damaged checkpoint part: " + e.getMessage(), e);
        }
        int state = in.readInt(); // format 5: state floats per row; before: state slots of dim floats each
        long updates = in.readLong();
        int rows = in.readInt();
        check(state >= 0 && state <= MAX_STATE_SLOTS * (version >= 5 ? dim : 1), "sparse table " + name + " has "
                + state + (version >= 5 ? " state floats per row" : " state slots"));
        int stateFloats = version >= 5 ? state : state * dim;
        int stride = dim + stateFloats;
        check(rows >= 0 && (long) rows * stride <= Integer.MAX_VALUE - 8, "sparse table " + name + " has " + rows
                + " rows of " + stride + " floats");
        // arrays grow as rows arrive, so a damaged count fails at the end of the file, not in one huge allocation
        int capacity = Math.min(rows, 1 << 14);
        long[] ids = new long[capacity];
        int[] steps = new int[capacity];
        boolean clocks = spec.lifecycle().tracksIdleness();
        long[] touched = clocks ? new long[capacity] : null;
        float[] data = new float[capacity * stride];
        float[] skipped = new float[stride];
        int kept = 0;
        for (int r = 0; r < rows; r++) {
            long id = in.readLong();
            int count = in.readInt();
            long clock = clocks ? in.readLong() : 0;
            if (!keepRow.test(id)) {
                readFloats(in, skipped, 0, stride, run);
                continue;
            }
            if (kept == capacity) {
                capacity = (int) Math.min(rows, 2L * capacity);
                ids = Arrays.copyOf(ids, capacity);
                steps = Arrays.copyOf(steps, capacity);
                touched = clocks ? Arrays.copyOf(touched, capacity) : null;
                data = Arrays.copyOf(data, capacity * stride);
            }
            ids[kept] = id;
            steps[kept] = count;
            if (clocks) {
                touched[kept] = clock;
            }
            readFloats(in, data, kept * stride, stride, run);
            kept++;
        }
        if (kept < capacity) {
            ids = Arrays.copyOf(ids, kept);
            steps = Arrays.copyOf(steps, kept);
            touched = clocks ? Arrays.copyOf(touched, kept) : null;
            data = Arrays.copyOf(data, kept * stride);
        }
        SparseRows.Admission admission = null;
        if (spec.lifecycle().admits()) {
            int n = in.readInt();
            check(n >= 0 && n <= MAX_SKETCH_BYTES, "sparse table " + name + " has an admission sketch of " + n + " bytes");
            byte[] counters = in.readNBytes(n);
            check(counters.length == n, "sparse table " + name + "'s admission sketch is cut short");
            long additions = in.readLong();
            try {
                admission = n == 0 ? null : new SparseRows.Admission(counters, additions);
            } catch (IllegalArgumentException e) {
                throw new IOException("damaged checkpoint part: sparse table " + name + ": " + e.getMessage(), e);
            }
        }
        return new SparseRows(spec, stateFloats, updates, ids, steps, data, touched, admission);
    }

    private static void writeFloats(DataOutputStream out, float[] values, byte[] run) throws IOException {
        writeFloats(out, values, 0, values.length, run);
    }

    private static void writeFloats(DataOutputStream out, float[] values, int at, int length, byte[] run)
            throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(run).order(ByteOrder.LITTLE_ENDIAN);
        for (int from = 0; from < length; from += FLOAT_RUN) {
            int n = Math.min(FLOAT_RUN, length - from);
            buf.clear();
            buf.asFloatBuffer().put(values, at + from, n);
            out.write(run, 0, n * 4);
        }
    }

    private static float[] readFloats(DataInputStream in, int length, byte[] run) throws IOException {
        float[] values = new float[length];
        readFloats(in, values, 0, length, run);
        return values;
    }

    private static void readFloats(DataInputStream in, float[] into, int at, int length, byte[] run)
            throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(run).order(ByteOrder.LITTLE_ENDIAN);
        for (int from = 0; from < length; from += FLOAT_RUN) {
            int n = Math.min(FLOAT_RUN, length - from);
            in.readFully(run, 0, n * 4);
            buf.clear();
            buf.asFloatBuffer().get(into, at + from, n);
        }
    }

    private static void check(boolean ok, String what) throws IOException {
        if (!ok) {
            throw new IOException("damaged checkpoint part: " + what);
        }
    }
}

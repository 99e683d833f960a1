package io.jvmps.common.sparse;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Binary frames of sparse pull and push requests and of the rows a pull answers. Stateless and
 * thread-safe; encode returns a buffer owning one reference, decode never releases its input.
 *
 * <p>Layout, little-endian. Every frame starts with magic 0x50535350 ("PSSP") int, version byte (1),
 * op byte (1 pull, 2 push, 3 rows), 2 reserved bytes. Then:
 * <ul>
 *   <li>pull: name length short, name (UTF-8), sender int, count int, ids (count longs);</li>
 *   <li>push: name length short, name, sender int, step long, kind byte (0 gradient, 1 delta), dim int,
 *       count int, ids (count longs), values (count x dim floats);</li>
 *   <li>rows: dim int, count int, values (count x dim floats).</li>
 * </ul>
 * A frame must be exactly as long as its header says; counts are at most {@link #MAX_ROWS}. One payload may hold
 * several frames back to back (a step's pulls or pushes of several tables to one server, and the rows answering
 * them, in the same order): {@link #nextFrame} and {@link #decodeAll} cut them apart.
 */
public final class SparseCodec {
    /** Frame magic, "PSSP" read as a little-endian int. */
    public static final int MAGIC = 0x50535350;
    /** Most rows in one frame. */
    public static final int MAX_ROWS = 1 << 20;
    private static final byte VERSION = 1;
    private static final byte PULL = 1;
    private static final byte PUSH = 2;
    private static final byte ROWS = 3;
    private static final int PREAMBLE = 8;
    private static final int MAX_NAME_BYTES = 64;

    private SparseCodec() {
    }

    /** @return a pull frame */
    public static ByteBuf encodePull(ByteBufAllocator alloc, SparsePull pull) {
        byte[] name = pull.table().getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = alloc.buffer(PREAMBLE + 2 + name.length + 8 + 8 * pull.ids().length);
        preamble(buf, PULL).writeShortLE(name.length).writeBytes(name)
                .writeIntLE(pull.sender()).writeIntLE(pull.ids().length);
        writeLongs(buf, pull.ids());
        return buf;
    }

    /** @return a push frame */
    public static ByteBuf encodePush(ByteBufAllocator alloc, SparsePush push) {
        return encodePush(alloc, push.table(), push.sender(), push.step(), push.kind(), push.dim(), push.ids(),
                push.values(), null);
    }

    /**
     * A push frame of some of a batch's rows, written straight from the batch's arrays (no copy of the part first).
     *
     * @param ids       the batch's ids
     * @param values    the batch's rows, {@code ids.length * dim} floats
     * @param positions the positions of the rows to send, in order, or null for all of them
     * @return the frame
     */
    public static ByteBuf encodePush(ByteBufAllocator alloc, String table, int sender, long step, UpdateKind kind,
                                     int dim, long[] ids, float[] values, int[] positions) {
        byte[] name = table.getBytes(StandardCharsets.UTF_8);
        int count = positions == null ? ids.length : positions.length;
        ByteBuf buf = alloc.buffer(PREAMBLE + 2 + name.length + 21 + 8 * count + 4 * count * dim);
        preamble(buf, PUSH).writeShortLE(name.length).writeBytes(name)
                .writeIntLE(sender).writeLongLE(step).writeByte(kind.ordinal())
                .writeIntLE(dim).writeIntLE(count);
        if (positions == null) {
            writeLongs(buf, ids);
            writeFloats(buf, values);
            return buf;
        }
        for (int position : positions) {
            buf.writeLongLE(ids[position]);
        }
        int at = buf.writerIndex();
        buf.ensureWritable(count * dim * 4);
        FloatBuffer rows = buf.nioBuffer(at, count * dim * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        for (int i = 0; i < count; i++) {
            rows.put(i * dim, values, positions[i] * dim, dim);
        }
        buf.writerIndex(at + count * dim * 4);
        return buf;
    }

    /** @return a rows frame holding {@code values.length / dim} rows */
    public static ByteBuf encodeRows(ByteBufAllocator alloc, int dim, float[] values) {
        return encodeRows(alloc, dim, values.length / dim, rows -> rows.put(0, values));
    }

    /**
     * A rows frame whose values the caller writes in place (a server copies its rows straight into the frame).
     *
     * @param count rows
     * @param fill  gets the frame's {@code count * dim} floats as a buffer, row {@code i} at index {@code i * dim},
     *              and writes each of them (absolute puts)
     * @return the frame
     */
    public static ByteBuf encodeRows(ByteBufAllocator alloc, int dim, int count,
                                     java.util.function.Consumer<FloatBuffer> fill) {
        int bytes = count * dim * 4;
        ByteBuf buf = alloc.buffer(PREAMBLE + 8 + bytes);
        try {
            preamble(buf, ROWS).writeIntLE(dim).writeIntLE(count);
            int at = buf.writerIndex();
            buf.ensureWritable(bytes);
            fill.accept(buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer());
            buf.writerIndex(at + bytes);
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** @throws PsException MALFORMED_FRAME naming what is wrong */
    public static SparsePull decodePull(ByteBuf frame) {
        Reader in = new Reader(frame, PULL, "sparse pull");
        String table = in.name();
        int sender = in.intLE();
        int count = in.count();
        long[] ids = in.longs(count);
        in.end();
        return new SparsePull(table, sender, ids);
    }

    /**
     * The sender rank of a sparse pull or push, without decoding its ids or values (a server binds every request
     * on a connection to the worker that opened it).
     *
     * @throws PsException MALFORMED_FRAME when the frame is neither, or too short to name its sender
     */
    public static int senderOf(ByteBuf frame) {
        boolean push = frame.readableBytes() > 5 && frame.getByte(frame.readerIndex() + 5) == PUSH;
        Reader in = new Reader(frame, push ? PUSH : PULL, push ? "sparse push" : "sparse pull");
        in.name();
        return in.intLE();
    }

    /** @throws PsException MALFORMED_FRAME naming what is wrong */
    public static SparsePush decodePush(ByteBuf frame) {
        Reader in = new Reader(frame, PUSH, "sparse push");
        String table = in.name();
        int sender = in.intLE();
        long step = in.longLE();
        int kindByte = in.byteValue();
        if (kindByte < 0 || kindByte >= UpdateKind.values().length) {
            throw malformed("sparse push", "update kind " + kindByte + " (0 gradient, 1 delta)");
        }
        int dim = in.dim();
        int count = in.count();
        long[] ids = in.longs(count);
        float[] values = in.floats((long) count * dim);
        in.end();
        return new SparsePush(table, sender, step, UpdateKind.values()[kindByte], dim, ids, values);
    }

    /**
     * @param expectedDim  the table's dim
     * @param expectedRows the number of ids asked for
     * @return the rows, {@code expectedRows * expectedDim} floats
     * @throws PsException MALFORMED_FRAME if the frame is not rows of that shape
     */
    public static float[] decodeRows(ByteBuf frame, int expectedDim, int expectedRows) {
        float[] values = new float[Math.multiplyExact(expectedRows, expectedDim)];
        int[] positions = new int[expectedRows];
        java.util.Arrays.setAll(positions, i -> i);
        decodeRowsInto(frame, expectedDim, positions, values);
        return values;
    }

    /**
     * Reads a rows frame straight into the caller's batch: row {@code i} of the frame goes to
     * {@code out[positions[i] * dim ..]}. Everything is checked before anything is written.
     *
     * @param positions where each of the frame's rows belongs in {@code out}; its length is the rows expected
     * @throws PsException MALFORMED_FRAME naming what is wrong
     */
    public static void decodeRowsInto(ByteBuf frame, int expectedDim, int[] positions, float[] out) {
        Reader in = new Reader(frame, ROWS, "sparse rows");
        int dim = in.dim();
        int count = in.count();
        if (dim != expectedDim || count != positions.length) {
            throw malformed("sparse rows", count + " rows of dim " + dim + " where " + positions.length
                    + " rows of dim " + expectedDim + " were asked for");
        }
        FloatBuffer rows = in.floatView((long) count * dim);
        in.end();
        for (int i = 0; i < count; i++) {
            rows.get(i * dim, out, positions[i] * dim, dim);
        }
    }

    /**
     * Cuts the next frame off a payload of frames back to back (a request for several tables, or its answer): a
     * slice of the payload (no copy, no reference of its own) as long as the frame's header says, and the payload's
     * reader index moved past it. The frame's content is checked by its decoder.
     *
     * @throws PsException MALFORMED_FRAME when the header is cut or names more bytes than the payload holds
     */
    public static ByteBuf nextFrame(ByteBuf payload) {
        int at = payload.readerIndex();
        int left = payload.readableBytes();
        long length = frameLength(payload, at, left);
        if (length > left) {
            throw malformed("sparse", "truncated: the frame at offset " + at + " needs " + length + " bytes, "
                    + left + " left");
        }
        ByteBuf frame = payload.slice(at, (int) length);
        payload.skipBytes((int) length);
        return frame;
    }

    /**
     * @param decode decodes one frame
     * @return every frame of a payload of frames back to back, decoded in order (at least one)
     * @throws PsException MALFORMED_FRAME for an empty payload or any bad frame; nothing is returned then
     */
    public static <T> java.util.List<T> decodeAll(ByteBuf payload, java.util.function.Function<ByteBuf, T> decode) {
        ByteBuf rest = payload.slice();
        if (!rest.isReadable()) {
            throw malformed("sparse", "empty payload");
        }
        java.util.List<T> out = new java.util.ArrayList<>();
        while (rest.isReadable()) {
            out.add(decode.apply(nextFrame(rest)));
        }
        return out;
    }

    /** @return the length of the frame at {@code at} by its header, as a long (a hostile count cannot overflow it) */
    private static long frameLength(ByteBuf payload, int at, int left) {
        if (left < PREAMBLE) {
            throw malformed("sparse", "truncated: " + left + " bytes where a frame header needs " + PREAMBLE);
        }
        if (payload.getIntLE(at) != MAGIC) {
            throw malformed("sparse", "bad magic 0x" + Integer.toHexString(payload.getIntLE(at)) + " at offset " + at);
        }
        byte op = payload.getByte(at + 5);
        if (op == ROWS) {
            requireHeader(left, PREAMBLE + 8);
            return PREAMBLE + 8 + 4L * Math.max(0, payload.getIntLE(at + PREAMBLE + 4))
                    * Math.max(0, payload.getIntLE(at + PREAMBLE));
        }
        if (op != PULL && op != PUSH) {
            throw malformed("sparse", "op " + op + " is no sparse frame");
        }
        requireHeader(left, PREAMBLE + 2);
        int name = Math.max(0, payload.getShortLE(at + PREAMBLE));
        int fixed = PREAMBLE + 2 + name + (op == PULL ? 8 : 21);
        requireHeader(left, fixed);
        long count = Math.max(0, payload.getIntLE(at + fixed - 4));
        if (op == PULL) {
            return fixed + 8 * count;
        }
        long dim = Math.max(0, payload.getIntLE(at + fixed - 8));
        return fixed + count * (8 + 4 * dim);
    }

    private static void requireHeader(int left, int needed) {
        if (left < needed) {
            throw malformed("sparse", "truncated: " + left + " bytes where the frame's header needs " + needed);
        }
    }

    private static ByteBuf preamble(ByteBuf buf, byte op) {
        return buf.writeIntLE(MAGIC).writeByte(VERSION).writeByte(op).writeZero(2);
    }

    private static void writeLongs(ByteBuf buf, long[] values) {
        int at = buf.writerIndex();
        buf.ensureWritable(values.length * 8);
        buf.nioBuffer(at, values.length * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(values);
        buf.writerIndex(at + values.length * 8);
    }

    private static void writeFloats(ByteBuf buf, float[] values) {
        int at = buf.writerIndex();
        buf.ensureWritable(values.length * 4);
        buf.nioBuffer(at, values.length * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(values);
        buf.writerIndex(at + values.length * 4);
    }

    private static PsException malformed(String what, String detail) {
        return new PsException(ErrorCode.MALFORMED_FRAME, what + " frame: " + detail);
    }

    /** Bounds-checked reading of one frame; every check happens before anything is allocated. */
    private static final class Reader {
        private final ByteBuf frame;
        private final String what;
        private int at;
        private final int end;

        Reader(ByteBuf frame, byte op, String what) {
            this.frame = frame;
            this.what = what;
            this.at = frame.readerIndex();
            this.end = frame.writerIndex();
            need(PREAMBLE);
            if (frame.getIntLE(at) != MAGIC) {
                throw malformed(what, "bad magic 0x" + Integer.toHexString(frame.getIntLE(at)));
            }
            if (frame.getByte(at + 4) != VERSION) {
                throw malformed(what, "unsupported version " + frame.getByte(at + 4));
            }
            if (frame.getByte(at + 5) != op) {
                throw malformed(what, "op " + frame.getByte(at + 5) + " where " + op + " was expected");
            }
            at += PREAMBLE;
        }

        private void need(long bytes) {
            if (end - at < bytes) {
                throw malformed(what, "truncated: " + bytes + " more bytes needed at offset "
                        + (at - frame.readerIndex()) + ", " + (end - at) + " left");
            }
        }

        String name() {
            need(2);
            int length = frame.getShortLE(at);
            at += 2;
            if (length < 1 || length > MAX_NAME_BYTES) {
                throw malformed(what, "table name of " + length + " bytes (1.." + MAX_NAME_BYTES + ")");
            }
            need(length);
            try {
                String name = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(frame.nioBuffer(at, length)).toString();
                at += length;
                return name;
            } catch (CharacterCodingException e) {
                throw malformed(what, "table name is not UTF-8");
            }
        }

        int intLE() {
            need(4);
            int v = frame.getIntLE(at);
            at += 4;
            return v;
        }

        long longLE() {
            need(8);
            long v = frame.getLongLE(at);
            at += 8;
            return v;
        }

        int byteValue() {
            need(1);
            return frame.getByte(at++);
        }

        int dim() {
            int dim = intLE();
            if (dim < 1 || dim > SparseTableSpec.MAX_DIM) {
                throw malformed(what, "dim " + dim + " (1.." + SparseTableSpec.MAX_DIM + ")");
            }
            return dim;
        }

        int count() {
            int count = intLE();
            if (count < 0 || count > MAX_ROWS) {
                throw malformed(what, "row count " + count + " (0.." + MAX_ROWS + ")");
            }
            return count;
        }

        long[] longs(int count) {
            need(8L * count);
            long[] values = new long[count];
            frame.nioBuffer(at, count * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(values);
            at += count * 8;
            return values;
        }

        FloatBuffer floatView(long count) {
            need(4L * count);
            FloatBuffer view = frame.nioBuffer(at, (int) count * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            at += (int) count * 4;
            return view;
        }

        float[] floats(long count) {
            need(4L * count);
            float[] values = new float[(int) count];
            frame.nioBuffer(at, (int) count * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
            at += (int) count * 4;
            return values;
        }

        void end() {
            if (at != end) {
                throw malformed(what, (end - at) + " bytes after the last row");
            }
        }
    }
}

package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The header of a NumPy {@code .npy} file (format versions 1 to 3): the element type, the shape and where
 * the data start. Only little-endian (or byte-sized) numbers in C order are accepted. Immutable.
 *
 * @param type       the element type
 * @param shape      the array's shape; {@code shape[0]} is the number of rows
 * @param dataOffset the byte offset of the first element
 */
record NpyHeader(NpyType type, long[] shape, long dataOffset) {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    /** @return the elements of one row: the product of {@code shape[1..]} (1 for a vector) */
    long rowElements() {
        long n = 1;
        for (int i = 1; i < shape.length; i++) {
            n *= shape[i];
        }
        return n;
    }

    /** @return the number of rows */
    long rows() {
        return shape[0];
    }

    /**
     * @throws PsException INVALID_ARGUMENT naming the file when it is no {@code .npy} file, is in Fortran
     *                     order, has an element type other than those of {@link NpyType}, or is shorter
     *                     than its shape says
     */
    static NpyHeader read(Path file, FileChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        channel.read(head, 0);
        head.flip();
        byte[] magic = new byte[6];
        if (head.remaining() < 10) {
            throw bad(file, "is not a NumPy .npy file (too short)");
        }
        head.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw bad(file, "is not a NumPy .npy file (no \\x93NUMPY magic)");
        }
        int major = head.get() & 0xff;
        head.get();
        long headerLength;
        long start;
        if (major == 1) {
            headerLength = head.getShort() & 0xffff;
            start = 10;
        } else if (major == 2 || major == 3) {
            if (head.remaining() < 4) {
                throw bad(file, "is not a NumPy .npy file (truncated header)");
            }
            headerLength = head.getInt() & 0xffffffffL;
            start = 12;
        } else {
            throw bad(file, "has .npy format version " + major + "; versions 1 to 3 are read");
        }
        if (headerLength > 1 << 20) {
            throw bad(file, "has a .npy header of " + headerLength + " bytes");
        }
        ByteBuffer text = ByteBuffer.allocate((int) headerLength);
        channel.read(text, start);
        String dict = new String(text.array(), 0, text.position(), StandardCharsets.UTF_8);
        Matcher descr = DESCR.matcher(dict);
        Matcher fortran = FORTRAN.matcher(dict);
        Matcher shape = SHAPE.matcher(dict);
        if (!descr.find() || !fortran.find() || !shape.find()) {
            throw bad(file, "has a .npy header that is not understood: " + dict.trim());
        }
        if (fortran.group(1).equals("True")) {
            throw bad(file, "is stored in Fortran order; save it in C order (numpy.ascontiguousarray)");
        }
        NpyType type = NpyType.of(descr.group(1));
        if (type == null) {
            throw bad(file, "holds '" + descr.group(1) + "'; accepted element types: " + NpyType.accepted());
        }
        String[] dims = shape.group(1).split(",");
        long[] parsed = Arrays.stream(dims).map(String::trim).filter(d -> !d.isEmpty()).mapToLong(Long::parseLong)
                .toArray();
        if (parsed.length == 0) {
            throw bad(file, "holds a scalar; a data set needs rows");
        }
        NpyHeader header = new NpyHeader(type, parsed, start + headerLength);
        long need = header.dataOffset + header.rows() * header.rowElements() * type.bytes();
        if (channel.size() < need) {
            throw bad(file, "is shorter (" + channel.size() + " bytes) than its shape " + Arrays.toString(parsed)
                    + " needs (" + need + " bytes)");
        }
        return header;
    }

    private static PsException bad(Path file, String what) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, file + " " + what);
    }
}

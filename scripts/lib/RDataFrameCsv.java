import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/**
 * Writes one data frame of an R package's lazy-load data base ({@code data/Rdata.rdx} and {@code Rdata.rdb},
 * zlib-compressed, R serialization format 2 or 3 in XDR) as CSV, without R. Run as a single-file program:
 * <pre>java RDataFrameCsv.java DATA_DIR OBJECT OUT.csv COLUMN...</pre>
 * Integer, double, logical, string and factor columns are supported (a factor is written as its level);
 * a value containing a comma, quote or line break is refused, since the CSV is written unquoted. NA is written
 * as an empty cell. Used by scripts/fetch-movielens.sh.
 */
public final class RDataFrameCsv {
    private static final int NILVALUE = 254;
    private static final int REF = 255;
    private static final int GLOBALENV = 253;
    private static final int UNBOUND = 252;
    private static final int MISSINGARG = 251;
    private static final int BASENAMESPACE = 250;
    private static final int EMPTYENV = 242;
    private static final int BASEENV = 241;
    private static final int ALTREP = 238;
    private static final int NA_INT = Integer.MIN_VALUE;

    /** An R object: its type, its value (int[], double[], String[], List of objects, or a name) and attributes. */
    record RObject(int type, Object value, Map<String, RObject> attributes) {
    }

    private final DataInputStream in;
    private final List<Object> refs = new ArrayList<>();

    private RDataFrameCsv(byte[] serialized) {
        this.in = new DataInputStream(new ByteArrayInputStream(serialized));
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: java RDataFrameCsv.java DATA_DIR OBJECT OUT.csv COLUMN...");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        RObject index = new RDataFrameCsv(new GZIPInputStream(Files.newInputStream(dir.resolve("Rdata.rdx")))
                .readAllBytes()).read();
        RObject variables = element(index, "variables");
        RObject where = element(variables, args[1]);
        if (where == null) {
            throw new IllegalArgumentException("no object '" + args[1] + "' in " + dir);
        }
        int[] offsetLength = asInts(where);
        byte[] entry;
        try (var rdb = java.nio.channels.FileChannel.open(dir.resolve("Rdata.rdb"))) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(offsetLength[1]);
            rdb.read(buffer, offsetLength[0]);
            entry = buffer.array();
        }
        RObject frame = new RDataFrameCsv(inflate(entry)).read();
        List<String> columns = List.of(args).subList(3, args.length);
        List<String[]> cells = new ArrayList<>();
        int rows = -1;
        for (String column : columns) {
            RObject vector = element(frame, column);
            if (vector == null) {
                throw new IllegalArgumentException("data frame '" + args[1] + "' has no column '" + column + "'; it has "
                        + List.of((String[]) frame.attributes().get("names").value()));
            }
            String[] text = text(vector);
            if (rows >= 0 && text.length != rows) {
                throw new IllegalStateException("column " + column + " has " + text.length + " rows, not " + rows);
            }
            rows = text.length;
            cells.add(text);
        }
        Path tmp = Path.of(args[2] + ".tmp");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))) {
            out.print(String.join(",", columns) + "\n");
            StringBuilder line = new StringBuilder();
            for (int r = 0; r < rows; r++) {
                line.setLength(0);
                for (int c = 0; c < cells.size(); c++) {
                    line.append(c == 0 ? "" : ",").append(cells.get(c)[r]);
                }
                out.print(line.append('\n'));
            }
        }
        Files.move(tmp, Path.of(args[2]), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("wrote " + rows + " rows of " + columns + " to " + args[2]);
    }

    private static byte[] inflate(byte[] entry) throws IOException {
        int length = ((entry[0] & 0xff) << 24) | ((entry[1] & 0xff) << 16) | ((entry[2] & 0xff) << 8) | (entry[3] & 0xff);
        Inflater inflater = new Inflater();
        inflater.setInput(entry, 4, entry.length - 4);
        byte[] out = new byte[length];
        try {
            int done = 0;
            while (done < length && !inflater.finished()) {
                int n = inflater.inflate(out, done, length - done);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new EOFException("truncated zlib entry");
                }
                done += n;
            }
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException("not a zlib-compressed entry (is the package's data base compressed otherwise?)", e);
        } finally {
            inflater.end();
        }
        return out;
    }

    private static RObject element(RObject list, String name) {
        RObject names = list.attributes().get("names");
        if (names == null) {
            return null;
        }
        String[] keys = (String[]) names.value();
        @SuppressWarnings("unchecked") List<RObject> items = (List<RObject>) list.value();
        for (int i = 0; i < keys.length; i++) {
            if (name.equals(keys[i])) {
                return items.get(i);
            }
        }
        return null;
    }

    private static int[] asInts(RObject vector) {
        if (vector.value() instanceof int[] ints) {
            return ints;
        }
        double[] doubles = (double[]) vector.value();
        int[] out = new int[doubles.length];
        for (int i = 0; i < doubles.length; i++) {
            out[i] = (int) doubles[i];
        }
        return out;
    }

    private static String[] text(RObject vector) {
        RObject levels = vector.attributes().get("levels");
        Object value = vector.value();
        String[] out;
        if (value instanceof int[] ints) {
            out = new String[ints.length];
            for (int i = 0; i < ints.length; i++) {
                out[i] = ints[i] == NA_INT ? "" : levels != null ? ((String[]) levels.value())[ints[i] - 1]
                        : vector.type() == 10 ? (ints[i] != 0 ? "TRUE" : "FALSE") : Integer.toString(ints[i]);
            }
        } else if (value instanceof double[] doubles) {
            out = new String[doubles.length];
            for (int i = 0; i < doubles.length; i++) {
                double d = doubles[i];
                out[i] = Double.isNaN(d) ? "" : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
                        : Double.toString(d);
            }
        } else if (value instanceof String[] strings) {
            out = new String[strings.length];
            for (int i = 0; i < strings.length; i++) {
                out[i] = strings[i] == null ? "" : strings[i];
            }
        } else {
            throw new IllegalArgumentException("column of R type " + vector.type() + " cannot be written as CSV");
        }
        for (String cell : out) {
            if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("value '" + cell + "' needs quoting; leave its column out");
            }
        }
        return out;
    }

    private RObject read() throws IOException {
        byte[] magic = new byte[2];
        in.readFully(magic);
        if (magic[0] != 'X' || magic[1] != '\n') {
            throw new IOException("not R's XDR serialization (starts with " + (char) magic[0] + ")");
        }
        int version = in.readInt();
        in.readInt(); // the writer's R version
        in.readInt(); // the oldest reader's
        if (version == 3) {
            in.readFully(new byte[in.readInt()]); // native encoding
        } else if (version != 2) {
            throw new IOException("R serialization version " + version + " is not supported");
        }
        return item();
    }

    private RObject item() throws IOException {
        int flags = in.readInt();
        int type = flags & 0xff;
        boolean hasAttr = (flags & (1 << 9)) != 0;
        boolean hasTag = (flags & (1 << 10)) != 0;
        switch (type) {
            case NILVALUE, GLOBALENV, UNBOUND, MISSINGARG, BASENAMESPACE, EMPTYENV, BASEENV:
                return new RObject(type, null, Map.of());
            case REF: {
                int index = flags >> 8 == 0 ? in.readInt() : flags >> 8;
                return (RObject) refs.get(index - 1);
            }
            case 1: { // a symbol
                RObject name = item();
                RObject symbol = new RObject(1, name.value(), Map.of());
                refs.add(symbol);
                return symbol;
            }
            case 2, 6, 17, 239, 240: { // pairlists, calls
                Map<String, RObject> attributes = hasAttr ? attributes(item()) : Map.of();
                String tag = hasTag ? (String) item().value() : null;
                RObject car = item();
                RObject cdr = item();
                List<Object> cell = new ArrayList<>(List.of(car, cdr));
                cell.add(tag);
                return new RObject(2, cell, attributes);
            }
            case 9: { // one string
                int length = in.readInt();
                if (length == -1) {
                    return new RObject(9, null, Map.of());
                }
                byte[] bytes = new byte[length];
                in.readFully(bytes);
                return new RObject(9, new String(bytes, StandardCharsets.UTF_8), Map.of());
            }
            case 10, 13: {
                int[] values = new int[length()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = in.readInt();
                }
                return withAttributes(type, values, hasAttr);
            }
            case 14: {
                double[] values = new double[length()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = in.readDouble();
                }
                return withAttributes(type, values, hasAttr);
            }
            case 16: {
                String[] values = new String[length()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = (String) item().value();
                }
                return withAttributes(type, values, hasAttr);
            }
            case 19, 20: {
                List<RObject> values = new ArrayList<>();
                int n = length();
                for (int i = 0; i < n; i++) {
                    values.add(item());
                }
                return withAttributes(type, values, hasAttr);
            }
            case ALTREP:
                return altrep();
            default:
                throw new IOException("R object type " + type + " is not supported by this reader");
        }
    }

    /** Compact integer and real sequences (R's own ALTREP classes); row names are often one. */
    private RObject altrep() throws IOException {
        RObject info = item();
        RObject state = item();
        RObject attributes = item();
        @SuppressWarnings("unchecked") List<Object> cell = (List<Object>) info.value();
        String kind = (String) ((RObject) cell.get(0)).value();
        Map<String, RObject> attrs = attributes(attributes);
        switch (kind) {
            case "compact_intseq": {
                double[] s = (double[]) state.value();
                int[] values = new int[(int) s[0]];
                for (int i = 0; i < values.length; i++) {
                    values[i] = (int) (s[1] + i * s[2]);
                }
                return new RObject(13, values, attrs);
            }
            case "compact_realseq": {
                double[] s = (double[]) state.value();
                double[] values = new double[(int) s[0]];
                for (int i = 0; i < values.length; i++) {
                    values[i] = s[1] + i * s[2];
                }
                return new RObject(14, values, attrs);
            }
            case "wrap_integer", "wrap_real", "wrap_string", "wrap_logical": {
                @SuppressWarnings("unchecked") RObject wrapped = ((List<RObject>) state.value()).get(0);
                return new RObject(wrapped.type(), wrapped.value(), attrs.isEmpty() ? wrapped.attributes() : attrs);
            }
            default:
                throw new IOException("R ALTREP class " + kind + " is not supported by this reader");
        }
    }

    private int length() throws IOException {
        int n = in.readInt();
        if (n == -1) {
            long upper = in.readInt();
            long lower = in.readInt() & 0xffffffffL;
            long length = (upper << 32) + lower;
            if (length > Integer.MAX_VALUE) {
                throw new IOException("vector of " + length + " elements is too long");
            }
            return (int) length;
        }
        return n;
    }

    private RObject withAttributes(int type, Object values, boolean hasAttr) throws IOException {
        return new RObject(type, values, hasAttr ? attributes(item()) : Map.of());
    }

    /** A pairlist of attributes as tag to value. */
    private static Map<String, RObject> attributes(RObject pairlist) {
        Map<String, RObject> out = new LinkedHashMap<>();
        RObject cell = pairlist;
        while (cell != null && cell.type() == 2) {
            @SuppressWarnings("unchecked") List<Object> parts = (List<Object>) cell.value();
            if (parts.get(2) != null) {
                out.put((String) parts.get(2), (RObject) parts.get(0));
            }
            cell = (RObject) parts.get(1);
        }
        return out;
    }
}

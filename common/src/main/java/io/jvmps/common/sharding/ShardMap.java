package io.jvmps.common.sharding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which server owns which slice of which dense parameter. A pure function of (parameter specs in
 * order, number of servers, slice bound): every node computes the same map without talking.
 *
 * <p>Cutting: each parameter is split into equal slices of at most {@code sliceElements} elements,
 * where {@code sliceElements = clamp(ceil(total / (servers * 8)), min(1024, floor(total / servers)),
 * maxSliceElements)} so that every server gets several slices and bytes balance within one slice; a model
 * of fewer than 1024 elements per server (but at least one per server) still gives every server a slice. Placement: slices sorted by
 * length (descending) then key are given, one by one, to the server holding the fewest bytes so far
 * (lowest rank on ties) — longest-processing-time-first, which keeps the heaviest server within one
 * slice of the mean. Immutable and thread-safe.
 */
public final class ShardMap {
    /** Default upper bound of a slice: 1 Mi float32 elements = 4 MiB. */
    public static final int DEFAULT_MAX_SLICE_ELEMENTS = 1 << 20;
    private static final int MIN_SLICE_ELEMENTS = 1024;
    private static final int SLICES_PER_SERVER = 8;

    private final List<ParamSpec> params;
    private final int servers;
    private final List<Slice> slices;
    private final Map<Long, Slice> byKey;
    private final List<List<Slice>> byServer;
    private final List<List<Slice>> byParam;

    private ShardMap(List<ParamSpec> params, int servers, List<Slice> slices) {
        this.params = List.copyOf(params);
        this.servers = servers;
        this.slices = List.copyOf(slices);
        this.byKey = new HashMap<>();
        this.byServer = new ArrayList<>();
        this.byParam = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
            byServer.add(new ArrayList<>());
        }
        for (int p = 0; p < params.size(); p++) {
            byParam.add(new ArrayList<>());
        }
        for (Slice slice : this.slices) {
            byKey.put(slice.key(), slice);
            byServer.get(slice.server()).add(slice);
            byParam.get(slice.paramIndex()).add(slice);
        }
    }

    /**
     * @param params           the model's dense parameters, in model order
     * @param servers          number of servers, &gt;= 1
     * @param maxSliceElements upper bound of elements per slice, &gt;= 1
     * @return the map
     */
    public static ShardMap compute(List<ParamSpec> params, int servers, int maxSliceElements) {
        if (servers < 1) {
            throw new IllegalArgumentException("need at least one server, got " + servers);
        }
        if (maxSliceElements < 1) {
            throw new IllegalArgumentException("maxSliceElements must be >= 1, got " + maxSliceElements);
        }
        long total = params.stream().mapToLong(ParamSpec::elements).sum();
        long wanted = (total + (long) servers * SLICES_PER_SERVER - 1) / ((long) servers * SLICES_PER_SERVER);
        // a model under MIN_SLICE_ELEMENTS per server is cut finer, so that every server still owns a slice
        long floor = Math.min(MIN_SLICE_ELEMENTS, Math.max(1, total / servers));
        int sliceElements = (int) Math.min(maxSliceElements, Math.max(floor, wanted));

        List<long[]> cuts = new ArrayList<>(); // {paramIndex, sliceIndex, offset, length}
        for (int p = 0; p < params.size(); p++) {
            long n = params.get(p).elements();
            int count = (int) ((n + sliceElements - 1) / sliceElements);
            long base = n / count;
            long extra = n % count;
            long offset = 0;
            for (int s = 0; s < count; s++) {
                long len = base + (s < extra ? 1 : 0);
                cuts.add(new long[] {p, s, offset, len});
                offset += len;
            }
        }
        cuts.sort(Comparator.<long[]>comparingLong(c -> -c[3])
                .thenComparingLong(c -> SliceKey.of((int) c[0], (int) c[1])));
        long[] load = new long[servers];
        List<Slice> placed = new ArrayList<>(cuts.size());
        for (long[] c : cuts) {
            int target = 0;
            for (int s = 1; s < servers; s++) {
                if (load[s] < load[target]) {
                    target = s;
                }
            }
            load[target] += c[3];
            int p = (int) c[0];
            placed.add(new Slice(SliceKey.of(p, (int) c[1]), p, params.get(p).name(), c[2], (int) c[3], target));
        }
        placed.sort(Comparator.comparingLong(Slice::key));
        return new ShardMap(params, servers, placed);
    }

    /** Same as {@link #compute(List, int, int)} with {@link #DEFAULT_MAX_SLICE_ELEMENTS}. */
    public static ShardMap compute(List<ParamSpec> params, int servers) {
        return compute(params, servers, DEFAULT_MAX_SLICE_ELEMENTS);
    }

    /** @return the parameters, in model order */
    public List<ParamSpec> params() {
        return params;
    }

    /** @return number of servers */
    public int servers() {
        return servers;
    }

    /** @return every slice, ordered by key */
    public List<Slice> slices() {
        return slices;
    }

    /** @return the slices a server owns, ordered by key */
    public List<Slice> slicesOf(int server) {
        return byServer.get(server);
    }

    /** @return the slices of one parameter, ordered by offset */
    public List<Slice> slicesOfParam(int paramIndex) {
        return byParam.get(paramIndex);
    }

    /** @return the slice with this key, or null */
    public Slice slice(long key) {
        return byKey.get(key);
    }

    /** @return float32 bytes owned by each server, indexed by rank */
    public long[] bytesPerServer() {
        long[] bytes = new long[servers];
        for (Slice s : slices) {
            bytes[s.server()] += s.bytes();
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "ShardMap[" + slices.size() + " slices over " + servers + " servers, bytes="
                + Arrays.toString(bytesPerServer()) + "]";
    }
}

package io.jvmps.common.sharding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardMapTest {

    static List<ParamSpec> lenet5() {
        return List.of(
                new ParamSpec("conv1_W", new long[] {5, 5, 1, 6}), new ParamSpec("conv1_b", new long[] {6}),
                new ParamSpec("conv2_W", new long[] {5, 5, 6, 16}), new ParamSpec("conv2_b", new long[] {16}),
                new ParamSpec("fc1_W", new long[] {400, 120}), new ParamSpec("fc1_b", new long[] {120}),
                new ParamSpec("fc2_W", new long[] {120, 84}), new ParamSpec("fc2_b", new long[] {84}),
                new ParamSpec("fc3_W", new long[] {84, 10}), new ParamSpec("fc3_b", new long[] {10}));
    }

    static List<ParamSpec> oneHuge() {
        return List.of(new ParamSpec("embedding", new long[] {10_000, 1_000}));
    }

    static List<ParamSpec> manyTiny() {
        return IntStream.range(0, 300)
                .mapToObj(i -> new ParamSpec("tiny" + i, new long[] {1 + i % 7, 1 + i % 3}))
                .toList();
    }

    static List<ParamSpec> singleScalar() {
        return List.of(new ParamSpec("bias", new long[] {1}));
    }

    static List<ParamSpec> mixed() {
        return List.of(new ParamSpec("a", new long[] {3_000_001}), new ParamSpec("b", new long[] {1}),
                new ParamSpec("c", new long[] {1023, 1025}), new ParamSpec("d", new long[] {2, 2, 2, 2, 2, 2, 2, 2}));
    }

    static Stream<Arguments> cases() {
        Map<String, List<ParamSpec>> models = Map.of("lenet5", lenet5(), "oneHuge", oneHuge(),
                "manyTiny", manyTiny(), "singleScalar", singleScalar(), "mixed", mixed());
        List<Arguments> out = new ArrayList<>();
        for (String name : models.keySet().stream().sorted().toList()) {
            for (int servers : new int[] {1, 2, 3, 5}) {
                for (int maxSlice : new int[] {ShardMap.DEFAULT_MAX_SLICE_ELEMENTS, 4096, 100}) {
                    out.add(Arguments.of(name, models.get(name), servers, maxSlice));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {2} servers, max slice {3}")
    @MethodSource("cases")
    void slicesTileEveryParameterExactlyOnce(String model, List<ParamSpec> params, int servers, int maxSlice) {
        ShardMap map = ShardMap.compute(params, servers, maxSlice);

        for (int p = 0; p < params.size(); p++) {
            List<Slice> slices = map.slicesOfParam(p);
            assertThat(slices).as("param %d has slices", p).isNotEmpty();
            long next = 0;
            for (int s = 0; s < slices.size(); s++) {
                Slice slice = slices.get(s);
                assertThat(slice.offset()).as("slice %s starts where the previous ended", slice).isEqualTo(next);
                assertThat(slice.length()).isBetween(1, maxSlice);
                assertThat(slice.paramIndex()).isEqualTo(p);
                assertThat(slice.paramName()).isEqualTo(params.get(p).name());
                assertThat(slice.key()).isEqualTo(SliceKey.of(p, s));
                next += slice.length();
            }
            assertThat(next).as("slices of param %d end at its element count", p).isEqualTo(params.get(p).elements());
        }
        long totalElements = params.stream().mapToLong(ParamSpec::elements).sum();
        assertThat(map.slices().stream().mapToLong(Slice::length).sum()).isEqualTo(totalElements);
    }

    @ParameterizedTest(name = "{0} on {2} servers, max slice {3}")
    @MethodSource("cases")
    void everySliceHasAServerInRangeAndBytesAreBalanced(String model, List<ParamSpec> params, int servers,
                                                          int maxSlice) {
        ShardMap map = ShardMap.compute(params, servers, maxSlice);

        assertThat(map.servers()).isEqualTo(servers);
        assertThat(map.slices().stream().filter(s -> s.server() < 0 || s.server() >= servers).findAny()).isEmpty();
        long[] bytes = map.bytesPerServer();
        assertThat(bytes).hasSize(servers);
        long largestSlice = map.slices().stream().mapToLong(Slice::bytes).max().orElseThrow();
        long spread = Arrays.stream(bytes).max().orElseThrow() - Arrays.stream(bytes).min().orElseThrow();
        assertThat(spread).as("bytes per server %s", Arrays.toString(bytes)).isLessThanOrEqualTo(largestSlice);
        assertThat(Arrays.stream(bytes).sum())
                .isEqualTo(4 * params.stream().mapToLong(ParamSpec::elements).sum());
    }

    @ParameterizedTest(name = "{0} on {2} servers, max slice {3}")
    @MethodSource("cases")
    void lookupsAgreeWithTheSliceList(String model, List<ParamSpec> params, int servers, int maxSlice) {
        ShardMap map = ShardMap.compute(params, servers, maxSlice);
        List<Slice> all = map.slices();

        assertThat(all).isSortedAccordingTo((a, b) -> Long.compare(a.key(), b.key()));
        assertThat(all.stream().map(Slice::key).collect(Collectors.toSet())).hasSameSizeAs(all);
        Set<Slice> union = new HashSet<>();
        int owners = 0;
        for (int s = 0; s < servers; s++) {
            int server = s;
            List<Slice> owned = map.slicesOf(s);
            assertThat(owned.stream().filter(slice -> slice.server() != server).findAny()).isEmpty();
            assertThat(owned).isSortedAccordingTo((a, b) -> Long.compare(a.key(), b.key()));
            assertThat(owned.stream().mapToLong(Slice::bytes).sum()).isEqualTo(map.bytesPerServer()[s]);
            union.addAll(owned);
            owners += owned.size();
        }
        assertThat(owners).as("no slice is listed under two servers").isEqualTo(all.size());
        assertThat(union).isEqualTo(new HashSet<>(all));
        List<Slice> byParam = IntStream.range(0, params.size()).boxed()
                .flatMap(p -> map.slicesOfParam(p).stream()).toList();
        assertThat(byParam).isEqualTo(all);
        for (Slice slice : all) {
            assertThat(map.slice(slice.key())).isSameAs(slice);
        }
        assertThat(map.slice(SliceKey.of(params.size(), 0))).isNull();
        assertThat(map.params()).isEqualTo(params);
    }

    @ParameterizedTest(name = "{0} on {2} servers, max slice {3}")
    @MethodSource("cases")
    void isDeterministic(String model, List<ParamSpec> params, int servers, int maxSlice) {
        ShardMap first = ShardMap.compute(params, servers, maxSlice);
        List<ParamSpec> rebuilt = params.stream().map(p -> new ParamSpec(p.name(), p.shape().clone())).toList();
        ShardMap second = ShardMap.compute(new ArrayList<>(rebuilt), servers, maxSlice);

        assertThat(second.slices()).isEqualTo(first.slices());
        assertThat(second.bytesPerServer()).containsExactly(first.bytesPerServer());
        assertThat(second.toString()).isEqualTo(first.toString());
    }

    @Test
    void placementIsPinnedForASmallModel() {
        // total 4000 elements on 2 servers -> slice bound clamps up to 1024 -> a: 3 x 1000, b: 1 x 1000;
        // equal lengths go in key order to the least loaded server, lowest rank on ties.
        List<ParamSpec> params = List.of(new ParamSpec("a", new long[] {3000}), new ParamSpec("b", new long[] {1000}));

        ShardMap map = ShardMap.compute(params, 2);

        assertThat(map.slices()).containsExactly(
                new Slice(SliceKey.of(0, 0), 0, "a", 0, 1000, 0),
                new Slice(SliceKey.of(0, 1), 0, "a", 1000, 1000, 1),
                new Slice(SliceKey.of(0, 2), 0, "a", 2000, 1000, 0),
                new Slice(SliceKey.of(1, 0), 1, "b", 0, 1000, 1));
        assertThat(map.bytesPerServer()).containsExactly(8000, 8000);
    }

    @Test
    void largeParametersAreCutIntoSeveralSlicesPerServer() {
        ShardMap map = ShardMap.compute(oneHuge(), 3);

        assertThat(map.slices()).hasSizeGreaterThanOrEqualTo(3 * 8);
        for (int s = 0; s < 3; s++) {
            assertThat(map.slicesOf(s)).hasSizeGreaterThanOrEqualTo(8);
        }
        assertThat(map.slices()).allSatisfy(s -> assertThat(s.length())
                .isLessThanOrEqualTo(ShardMap.DEFAULT_MAX_SLICE_ELEMENTS));
    }

    @Test
    void aModelSmallerThanOneSlicePerServerIsCutSoEveryServerOwnsOne() {
        // a 10-float bias alone on 2 servers: two slices of 5; 10 + 3 floats on 4 servers: slices of <= 3
        ShardMap bias = ShardMap.compute(List.of(new ParamSpec("bias", new long[] {10})), 2);
        assertThat(bias.slices()).extracting(Slice::length).containsExactly(5, 5);
        assertThat(bias.bytesPerServer()).containsExactly(20, 20);
        ShardMap two = ShardMap.compute(List.of(new ParamSpec("w", new long[] {10}), new ParamSpec("b", new long[] {3})), 4);
        for (int s = 0; s < 4; s++) {
            assertThat(two.slicesOf(s)).as("server %d", s).isNotEmpty();
        }
        assertThat(two.slices()).allSatisfy(slice -> assertThat(slice.length()).isLessThanOrEqualTo(3));
    }

    @Test
    void moreServersThanSlicesLeavesSomeServersEmpty() {
        ShardMap map = ShardMap.compute(singleScalar(), 5);

        assertThat(map.slices()).singleElement().satisfies(s -> assertThat(s.server()).isZero());
        assertThat(map.bytesPerServer()).containsExactly(4, 0, 0, 0, 0);
        assertThat(map.slicesOf(4)).isEmpty();
    }

    @Test
    void emptyModelHasNoSlices() {
        ShardMap map = ShardMap.compute(List.of(), 2);

        assertThat(map.slices()).isEmpty();
        assertThat(map.bytesPerServer()).containsExactly(0, 0);
    }

    @Test
    void paramListIsCopied() {
        List<ParamSpec> params = new ArrayList<>(lenet5());
        ShardMap map = ShardMap.compute(params, 2);
        params.clear();

        assertThat(map.params()).hasSize(10);
        assertThatThrownBy(() -> map.params().add(new ParamSpec("x", new long[] {1})))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.slices().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rejectsZeroOrNegativeServers() {
        assertThatThrownBy(() -> ShardMap.compute(lenet5(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one server, got 0");
        assertThatThrownBy(() -> ShardMap.compute(lenet5(), -3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got -3");
    }

    @Test
    void rejectsNonPositiveMaxSliceElements() {
        assertThatThrownBy(() -> ShardMap.compute(lenet5(), 2, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSliceElements must be >= 1, got 0");
        assertThatThrownBy(() -> ShardMap.compute(lenet5(), 2, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got -1");
    }

    @Test
    void maxSliceOfOneGivesOneSlicePerElement() {
        List<ParamSpec> params = List.of(new ParamSpec("w", new long[] {2, 3}));
        ShardMap map = ShardMap.compute(params, 2, 1);

        assertThat(map.slices()).hasSize(6).allSatisfy(s -> assertThat(s.length()).isEqualTo(1));
        assertThat(map.bytesPerServer()).containsExactly(12, 12);
    }
}

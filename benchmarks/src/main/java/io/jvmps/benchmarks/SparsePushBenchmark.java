package io.jvmps.benchmarks;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.sparse.SparseTable;
import io.jvmps.server.sparse.SparseTables;
import io.jvmps.server.store.MemoryBudget;
import org.agrona.collections.Long2LongHashMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A server's CPU per pushed sparse row: a push of {@value #BATCH} distinct rows (a CTR step's lookup) into a
 * table of {@value #ROWS} rows, by the server's {@link SparseTable#push} (checks, deduplication, the lock, the
 * optimizer) against the baseline in the same run, a plain loop over a primitive hash map that finds each row
 * and applies the same update inline, as a C++ row store does. Both report nanoseconds per row
 * ({@link OperationsPerInvocation}); their ratio is the server's overhead. Rows exist before measuring, so
 * neither allocates rows.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SparsePushBenchmark {
    static final int ROWS = 200_000;
    static final int BATCH = 256;
    private static final int BATCHES = 64;
    private static final double LR = 0.01;

    @Param({"SGD", "ADAM"})
    public OptimizerType type;

    @Param({"8"})
    public int dim;

    /** {@code none}: rows kept forever; {@code evicting}: admission after 2 pushes and eviction after 2^40 steps, so
     *  every pushed row records its clock and every push checks for a sweep, but no row ever goes. */
    @Param({"none", "evicting"})
    public String lifecycle;

    private SparseTable table;
    private long[][] ids;
    private float[][] gradients;
    private int next;

    private Long2LongHashMap plainIndex;
    private float[] plainRows;
    private int[] plainSteps;
    private int stride;
    private OptimizerSettings settings;

    @Setup
    public void setUp() {
        settings = OptimizerSettings.defaults(LR);
        SparseTables tables = new SparseTables(type, t -> t.create(settings), new MemoryBudget(Long.MAX_VALUE));
        SparseTableSpec spec = new SparseTableSpec("bench", dim, 7L, 0.01f, type.name(), (long) ROWS);
        table = tables.declare("evicting".equals(lifecycle)
                ? spec.withLifecycle(new io.jvmps.common.sparse.RowLifecycle(2, 1L << 40)) : spec);
        SplittableRandom random = new SplittableRandom(42);
        ids = new long[BATCHES][];
        gradients = new float[BATCHES][];
        for (int b = 0; b < BATCHES; b++) {
            ids[b] = random.ints(0, ROWS).distinct().limit(BATCH).asLongStream().toArray();
            gradients[b] = new float[BATCH * dim];
            for (int i = 0; i < gradients[b].length; i++) {
                gradients[b][i] = (float) (random.nextDouble() - 0.5);
            }
        }
        stride = dim * (1 + type.create(settings).rowStateSlots());
        plainIndex = new Long2LongHashMap(ROWS * 2, 0.65f, -1);
        plainRows = new float[ROWS * stride];
        plainSteps = new int[ROWS];
        for (int r = 0; r < ROWS; r++) {
            plainIndex.put(r, r);
            for (int k = 0; k < dim; k++) {
                plainRows[r * stride + k] = (float) (random.nextDouble() - 0.5) * 0.01f;
            }
        }
    }

    /** The server's push: finite check, deduplication, write lock, row lookup, the optimizer's row update. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int server() {
        int b = next++ & (BATCHES - 1);
        return table.push(next, ids[b], gradients[b], UpdateKind.GRADIENT);
    }

    /** The baseline: a map lookup and the same arithmetic per row, nothing else. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public float plainLoop() {
        int b = next++ & (BATCHES - 1);
        long[] batch = ids[b];
        float[] g = gradients[b];
        float[] rows = plainRows;
        for (int i = 0; i < batch.length; i++) {
            int at = (int) plainIndex.get(batch[i]) * stride;
            int step = ++plainSteps[at / stride];
            int go = i * dim;
            if (type == OptimizerType.ADAM) {
                adamRow(rows, at, g, go, step);
            } else {
                for (int k = 0; k < dim; k++) {
                    rows[at + k] -= (float) LR * g[go + k];
                }
            }
        }
        return rows[0];
    }

    private void adamRow(float[] rows, int at, float[] g, int go, int step) {
        OptimizerSettings s = settings;
        float b1 = (float) s.beta1();
        float b2 = (float) s.beta2();
        float c1 = (float) (1 - s.beta1());
        float c2 = (float) (1 - s.beta2());
        float invSqrtBias2 = (float) (1 / Math.sqrt(1 - Math.pow(s.beta2(), step)));
        float scale = (float) (LR / (1 - Math.pow(s.beta1(), step)));
        float eps = (float) s.epsilon();
        int m = at + dim;
        int v = at + 2 * dim;
        for (int k = 0; k < dim; k++) {
            float grad = g[go + k];
            float mk = b1 * rows[m + k] + c1 * grad;
            float vk = b2 * rows[v + k] + c2 * grad * grad;
            rows[m + k] = mk;
            rows[v + k] = vk;
            rows[at + k] -= scale * mk / ((float) Math.sqrt(vk) * invSqrtBias2 + eps);
        }
    }
}

package io.jvmps.benchmarks;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.optimizer.OptimizerType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One dense update of a 4 MiB slice (1M floats, the servers' slice size) by each optimizer's kernel on
 * one thread: divide the time by 2^20 for nanoseconds per element. The baseline in the same run is SGD,
 * which is bound by memory (reads 8 bytes and writes 4 per element).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OptimizerKernelBenchmark {
    @Param({"SGD", "MOMENTUM", "ADAGRAD", "ADAM", "FTRL"})
    public OptimizerType type;

    @Param({"1048576"})
    public int length;

    private Optimizer optimizer;
    private INDArray param;
    private INDArray gradient;
    private OptimizerState state;
    private long step;

    @Setup
    public void setUp() {
        optimizer = type.create(OptimizerSettings.defaults(1e-4));
        param = Nd4j.rand(DataType.FLOAT, length);
        gradient = Nd4j.rand(DataType.FLOAT, length).subi(0.5);
        state = optimizer.newState(length);
    }

    @Benchmark
    public INDArray update() {
        optimizer.apply(param, gradient, state, ++step);
        return param;
    }
}

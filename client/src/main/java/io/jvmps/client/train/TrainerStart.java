package io.jvmps.client.train;

import io.jvmps.client.PsJob;
import io.jvmps.client.data.SparseClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;

/**
 * The first fit's declarations for {@link SameDiffTrainer}: the graph's tables, its worker-local parameters, and its
 * dense parameters on the servers (seeded by rank 0 with the graph's values, a step barrier added when the dense part
 * cannot give every server a slice), then the join. Stateless.
 */
final class TrainerStart {
    private static final Logger log = LoggerFactory.getLogger(TrainerStart.class);

    private TrainerStart() {
    }

    /**
     * What the declarations gave.
     *
     * @param dense  the dense client and the step to start at
     * @param local  the worker-local parameters, or null when every parameter is on the servers
     * @param sparse the sparse client, or null for a graph without tables
     */
    record Started(PsJob.DenseStart dense, WorkerLocalParams local, SparseClient sparse) {
    }

    /**
     * @param onWorkers the parameters kept on the workers
     * @param steps     the first fit's length, told to the servers
     * @throws PsException INVALID_ARGUMENT when every parameter is placed on the workers, or a graph with tables
     *                     places any there
     */
    static Started declare(PsJob job, SameDiffGraph graph, Set<String> onWorkers, long steps) {
        if (!graph.tables().isEmpty()) {
            if (!onWorkers.isEmpty()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "a graph with embedding tables keeps its dense "
                        + "parameters on the servers; worker-local placement is for dense graphs");
            }
            List<io.jvmps.common.sparse.SparseTableStatus> held = job.declareTables(
                    graph.tables().list().stream().map(t -> t.table().spec(t.dim())).toList());
            log.info("worker {} holds tables {} on the servers, read by {} lookups; held there now: {}", job.rank(),
                    graph.tables().variables(), graph.tables().lookups().size(), held.stream().map(t ->
                            String.format(java.util.Locale.ROOT, "%s %d rows / %.1f MB", t.name(), t.rows(),
                                    t.bytes() / 1e6)).toList());
        }
        List<ParamSpec> onServers = graph.params().stream().filter(p -> !onWorkers.contains(p.name())).toList();
        if (onServers.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "every parameter is placed on the workers; keep at "
                    + "least one on the servers");
        }
        WorkerLocalParams local = null;
        if (!onWorkers.isEmpty()) {
            List<ParamSpec> locals = graph.params().stream().filter(p -> onWorkers.contains(p.name())).toList();
            local = new WorkerLocalParams(graph::param, graph::setParam, locals,
                    HybridUpdateRule.forServers(job.semantics(), steps), job::allReduce);
            log.info("worker {} keeps {} on the workers, averaged by a ring AllReduce and updated by the servers' "
                    + "rule", job.rank(), onWorkers);
        }
        INDArray[] initial = onServers.stream().map(p -> graph.param(p.name())).toArray(INDArray[]::new);
        long denseElements = onServers.stream().mapToLong(ParamSpec::elements).sum();
        if (!graph.tables().isEmpty() && denseElements < job.servers()) {
            // every server needs a dense slice: it carries the step barrier and triggers the server's checkpoint
            // part, which holds the server's table rows too
            onServers = new java.util.ArrayList<>(onServers);
            onServers.add(new ParamSpec(SameDiffTrainer.STEP_BARRIER, new long[] {job.servers()}));
            initial = java.util.Arrays.copyOf(initial, initial.length + 1);
            initial[initial.length - 1] = Nd4j.zeros(DataType.FLOAT, job.servers());
            log.info("worker {}: the graph's {} dense element(s) cannot give each of the {} servers a slice; added "
                    + "{} (one zero per server, never changed)", job.rank(), denseElements, job.servers(),
                    SameDiffTrainer.STEP_BARRIER);
        }
        PsJob.DenseStart dense = job.declareDense(onServers, initial, steps, !onWorkers.isEmpty());
        // after the dense declaration: a join that had to recover holds new connections
        SparseClient sparse = graph.tables().isEmpty() ? null : job.sparse();
        log.info("worker {} of {} trains {} in {} mode from step {}", job.rank(), job.workers(), graph,
                job.semantics().mode(), dense.startStep());
        return new Started(dense, local, sparse);
    }
}

package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.SparseTableSpec;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.autodiff.samediff.internal.SameDiffOp;
import org.nd4j.autodiff.samediff.internal.Variable;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ops.impl.shape.Gather;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedding tables of a graph, checked against it, and their lookups: every op that reads a table must be
 * {@code gather(table, ids, 0)} with {@code ids} an integer placeholder. In table order, lookups in graph order.
 * <p>
 * {@link #trainingCopy} makes the graph a trainer computes with: a copy in which each lookup's output is a
 * variable of its own, set every step to the batch's rows, so the graph differentiates to those rows (the pinned
 * nd4j's own gather gradient is a loop over the indices, seconds per step, and fails for a second gather).
 * Immutable.
 */
public final class GraphTables {
    private final List<Table> tables;
    private final List<Lookup> lookups;

    /**
     * One table as the graph has it.
     *
     * @param table      the declaration
     * @param dim        values per row (the variable's second dimension)
     * @param vocabulary rows of the variable (the id bound of a bounded table)
     */
    public record Table(EmbeddingTable table, int dim, long vocabulary) {
        /** @return the table's variable (and name on the servers) */
        public String variable() {
            return table.variable();
        }
    }

    /**
     * One {@code gather(table, ids, 0)} of the graph.
     *
     * @param output the gather's output: {@code ids}' shape plus the row's {@code dim}
     * @param table  index of the table in {@link #list()}
     * @param ids    the integer placeholder of its ids
     */
    public record Lookup(String output, int table, String ids) {
    }

    private GraphTables(List<Table> tables, List<Lookup> lookups) {
        this.tables = List.copyOf(tables);
        this.lookups = List.copyOf(lookups);
    }

    static GraphTables check(SameDiff sd, String label, List<EmbeddingTable> declared) {
        List<Table> out = new ArrayList<>();
        for (EmbeddingTable table : declared) {
            SDVariable v = sd.hasVariable(table.variable()) ? sd.getVariable(table.variable()) : null;
            if (v == null || v.getVariableType() != VariableType.VARIABLE || v.getArr() == null
                    || v.getArr().rank() != 2 || v.dataType() != DataType.FLOAT) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": embedding table '" + table.variable()
                        + "' must be a FLOAT variable [vocabulary, dim]; the graph's variables: "
                        + SameDiffGraph.describe(sd));
            }
            if (out.stream().anyMatch(t -> t.variable().equals(table.variable()))) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": table '" + table.variable()
                        + "' is declared twice");
            }
            long[] shape = v.getArr().shape();
            if (shape[1] < 1 || shape[1] > SparseTableSpec.MAX_DIM) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": table '" + table.variable()
                        + "' has rows of " + shape[1] + " values; the servers hold 1.." + SparseTableSpec.MAX_DIM);
            }
            if (!table.hashed() && table.initRows() > shape[0]) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": table '" + table.variable() + "' asks "
                        + "the servers to create " + table.initRows() + " rows up front, beyond its vocabulary of "
                        + shape[0] + " (the variable's rows)");
            }
            out.add(new Table(table, (int) shape[1], shape[0]));
        }
        List<Lookup> lookups = new ArrayList<>();
        for (int t = 0; t < out.size(); t++) {
            String variable = out.get(t).variable();
            for (String opName : sd.getVariables().get(variable).getInputsForOp() == null ? List.<String>of()
                    : sd.getVariables().get(variable).getInputsForOp()) {
                SameDiffOp op = sd.getOps().get(opName);
                List<String> inputs = op.getInputsToOp();
                if (!(op.getOp() instanceof Gather gather) || inputs.size() != 2 || !inputs.get(0).equals(variable)
                        || (gather.iArgs().length > 0 && gather.iArgs()[0] != 0)) {
                    throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": table '" + variable + "' is read by "
                            + op.getOp().opName() + " op '" + opName + "'; read a table only as gather(table, ids, 0)");
                }
                SDVariable ids = sd.getVariable(inputs.get(1));
                if (ids.getVariableType() != VariableType.PLACEHOLDER || !ids.dataType().isIntType()) {
                    throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": gather '" + opName + "' reads table '"
                            + variable + "' at '" + ids.name() + "', a " + ids.dataType() + " "
                            + ids.getVariableType() + "; the ids must be an integer (INT32 or INT64) placeholder");
                }
                lookups.add(new Lookup(op.getOutputsOfOp().get(0), t, ids.name()));
            }
            int table = t;
            if (lookups.stream().noneMatch(l -> l.table() == table)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": table '" + variable + "' is read by no "
                        + "gather(table, ids, 0)");
            }
        }
        return new GraphTables(out, lookups);
    }

    /**
     * @return a copy of the graph in which every lookup's output is a float32 variable instead of a gather (the
     * tables themselves are left unread); the given graph is unchanged
     */
    SameDiff trainingCopy(SameDiff sd) {
        SameDiff copy = sd.dup();
        for (Lookup lookup : lookups) {
            Variable output = copy.getVariables().get(lookup.output());
            String opName = output.getOutputOfOp();
            SameDiffOp op = copy.getOps().get(opName);
            for (String input : op.getInputsToOp()) {
                Variable in = copy.getVariables().get(input);
                List<String> consumers = new ArrayList<>(in.getInputsForOp());
                consumers.remove(opName);
                in.setInputsForOp(consumers);
            }
            copy.getOps().remove(opName);
            output.setOutputOfOp(null);
            output.getVariable().setVariableType(VariableType.VARIABLE);
            copy.getVariable(lookup.output()).setArray(Nd4j.zeros(DataType.FLOAT, 1, tables.get(lookup.table()).dim()));
        }
        return copy;
    }

    /** @return the tables, in declaration order */
    public List<Table> list() {
        return tables;
    }

    /** @return every lookup, grouped by table in table order */
    public List<Lookup> lookups() {
        return lookups;
    }

    /** @return whether the graph has no table */
    public boolean isEmpty() {
        return tables.isEmpty();
    }

    /** @return whether {@code variable} is one of the tables */
    public boolean isTable(String variable) {
        return tables.stream().anyMatch(t -> t.variable().equals(variable));
    }

    /** @return the tables' variables, in order */
    public List<String> variables() {
        return tables.stream().map(Table::variable).toList();
    }

    /** @return each id placeholder and the tables it indexes */
    public Map<String, List<String>> idInputs() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Lookup lookup : lookups) {
            out.computeIfAbsent(lookup.ids(), k -> new ArrayList<>()).add(tables.get(lookup.table()).variable());
        }
        return out;
    }
}

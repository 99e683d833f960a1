package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a model's parameters the parameter servers manage (the analogue of MindSpore's
 * {@code network.set_param_ps()}). PS-managed parameters are sharded over the servers and pushed and
 * pulled every step; worker-local parameters stay on the workers and are kept equal by an AllReduce
 * among them. Applied to a model in one line:
 * <pre>
 *   model.place(Placement.allOnPs());                  // every parameter on the PS (the default)
 *   model.place(Placement.workerLocal("conv1_W", "conv1_b")); // these two local, the rest on the PS
 *   model.place(Placement.onPs("fc1_W", "fc1_b"));     // only these two on the PS, the rest local
 * </pre>
 * Immutable; names are checked against a model by {@link #check(String, List)}.
 */
public final class Placement {
    private static final Placement ALL_ON_PS = new Placement(false, List.of());

    /** true: {@link #names} are the PS-managed ones; false: they are the worker-local ones. */
    private final boolean namesOnPs;
    private final List<String> names;

    private Placement(boolean namesOnPs, List<String> names) {
        this.namesOnPs = namesOnPs;
        this.names = names;
    }

    /** @return every parameter PS-managed (today's behaviour) */
    public static Placement allOnPs() {
        return ALL_ON_PS;
    }

    /** @return only the named parameters PS-managed; every other one worker-local */
    public static Placement onPs(String... names) {
        return new Placement(true, copy(names));
    }

    /** @return the named parameters worker-local; every other one PS-managed */
    public static Placement workerLocal(String... names) {
        return names.length == 0 ? ALL_ON_PS : new Placement(false, copy(names));
    }

    /** @return true when the parameter is managed by the servers */
    public boolean isOnPs(String name) {
        return names.contains(name) == namesOnPs;
    }

    /** @return the PS-managed parameters of {@code params}, in their order */
    public List<ParamSpec> psParams(List<ParamSpec> params) {
        return params.stream().filter(p -> isOnPs(p.name())).toList();
    }

    /** @return the worker-local parameters of {@code params}, in their order */
    public List<ParamSpec> localParams(List<ParamSpec> params) {
        return params.stream().filter(p -> !isOnPs(p.name())).toList();
    }

    /**
     * Checks this placement fits a model: every named parameter exists, and at least one parameter
     * stays on the servers.
     *
     * @param modelName the model's name, for messages
     * @param params    the model's parameters
     * @return this placement
     * @throws PsException INVALID_ARGUMENT naming the unknown parameter and the model's parameter names
     */
    public Placement check(String modelName, List<ParamSpec> params) {
        List<String> known = params.stream().map(ParamSpec::name).toList();
        for (String name : names) {
            if (!known.contains(name)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "model " + modelName + " has no parameter '"
                        + name + "' to place; its parameters are " + known);
            }
        }
        if (psParams(params).isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "placement " + this + " leaves no parameter of model "
                    + modelName + " on the parameter servers; keep at least one of " + known + " on the PS");
        }
        return this;
    }

    private static List<String> copy(String... names) {
        Set<String> set = new LinkedHashSet<>();
        for (String name : names) {
            if (name == null || name.isBlank()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "a parameter name to place is blank");
            }
            set.add(name.trim());
        }
        return List.copyOf(set);
    }

    @Override
    public String toString() {
        if (names.isEmpty() && !namesOnPs) {
            return "allOnPs()";
        }
        return (namesOnPs ? "onPs" : "workerLocal") + names;
    }
}

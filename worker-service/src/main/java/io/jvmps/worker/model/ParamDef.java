package io.jvmps.worker.model;

import io.jvmps.common.sharding.ParamSpec;

/**
 * A parameter as a model declares it: name and shape, plus how to initialise it.
 *
 * @param spec   name and shape
 * @param init   initialisation scheme
 * @param fanIn  inputs feeding one output unit (for the scheme's scale)
 * @param fanOut outputs fed by one input unit
 */
public record ParamDef(ParamSpec spec, InitScheme init, int fanIn, int fanOut) {

    /**
     * @return a definition with the given name and shape
     */
    public static ParamDef of(String name, InitScheme init, int fanIn, int fanOut, long... shape) {
        return new ParamDef(new ParamSpec(name, shape), init, fanIn, fanOut);
    }

    /** @return the parameter name */
    public String name() {
        return spec.name();
    }
}

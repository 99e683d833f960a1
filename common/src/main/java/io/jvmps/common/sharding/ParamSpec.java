package io.jvmps.common.sharding;

import java.util.Arrays;

/**
 * A dense parameter as the model declares it: a name and a row-major shape of float32 elements.
 * A model's parameters are an ordered list; the position in that list is the parameter index used
 * in {@link SliceKey}s. Immutable.
 *
 * @param name  unique name within the model (e.g. {@code conv1_W})
 * @param shape dimensions, each &gt;= 1
 */
public record ParamSpec(String name, long[] shape) {
    /** Largest tensor accepted: its float32 bytes must fit an int (2 GiB). */
    public static final long MAX_ELEMENTS = Integer.MAX_VALUE / 4;

    /** Validates the shape. */
    public ParamSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("parameter name must not be blank");
        }
        shape = shape.clone();
        long n = 1;
        for (long d : shape) {
            if (d < 1) {
                throw new IllegalArgumentException("parameter " + name + " has dimension " + d + " in shape "
                        + Arrays.toString(shape) + "; every dimension must be >= 1");
            }
            if (n > Long.MAX_VALUE / d) { // the product would overflow a long: far above the limit
                throw new IllegalArgumentException("parameter " + name + " has shape " + Arrays.toString(shape)
                        + ", above the limit of " + MAX_ELEMENTS + " float32 elements (2 GiB)");
            }
            n *= d;
        }
        if (n > MAX_ELEMENTS) {
            throw new IllegalArgumentException("parameter " + name + " has " + n + " elements (" + (n * 4)
                    + " bytes), above the limit of " + MAX_ELEMENTS + " float32 elements (2 GiB)");
        }
    }

    /** @return number of elements */
    public long elements() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParamSpec p && p.name.equals(name) && Arrays.equals(p.shape, shape);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return name + Arrays.toString(shape);
    }
}

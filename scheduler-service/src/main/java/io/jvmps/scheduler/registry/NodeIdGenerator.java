package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.NodeRole;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Makes node ids of the form {@code <role>-<rank>-<4 hex digits>}, e.g. {@code server-0-3f2a}. The
 * random suffix tells a restarted node's new identity from its old one; the source is injected so
 * tests can seed it. Not thread-safe on its own; the registry calls it under its lock.
 */
public final class NodeIdGenerator {
    private final RandomGenerator random;

    /** @param random the source of the 16-bit suffix */
    public NodeIdGenerator(RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /** @return a fresh id for a node of this role and rank */
    public String next(NodeRole role, int rank) {
        return role.label() + "-" + rank + "-" + String.format("%04x", random.nextInt(0x10000));
    }
}

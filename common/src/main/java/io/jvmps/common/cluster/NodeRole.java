package io.jvmps.common.cluster;

import java.util.Locale;

/**
 * The three roles of a job. Ranks are assigned per role, from 0, in registration order.
 * The MindSpore role names ({@code MS_SCHED}, {@code MS_PSERVER}, {@code MS_WORKER}) map onto these.
 */
public enum NodeRole {
    /** The rendezvous node; exactly one per job. */
    SCHEDULER("MS_SCHED"),
    /** Holds a shard of the parameters. */
    SERVER("MS_PSERVER"),
    /** Trains on a shard of the data. */
    WORKER("MS_WORKER");

    private final String mindSporeName;

    NodeRole(String mindSporeName) {
        this.mindSporeName = mindSporeName;
    }

    /** @return the MindSpore {@code MS_ROLE} value of this role */
    public String mindSporeName() {
        return mindSporeName;
    }

    /** @return the lower-case name used in logs and URLs ({@code server}, {@code worker}) */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses either our name ({@code server}, case-insensitive) or the MindSpore name.
     *
     * @param text the role name
     * @return the role
     * @throws IllegalArgumentException naming the accepted values
     */
    public static NodeRole parse(String text) {
        if (text != null) {
            for (NodeRole role : values()) {
                if (role.name().equalsIgnoreCase(text.trim()) || role.mindSporeName.equalsIgnoreCase(text.trim())) {
                    return role;
                }
            }
        }
        throw new IllegalArgumentException("unknown role '" + text
                + "'; accepted: scheduler, server, worker, MS_SCHED, MS_PSERVER, MS_WORKER");
    }
}

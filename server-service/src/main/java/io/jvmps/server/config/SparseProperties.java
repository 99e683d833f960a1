package io.jvmps.server.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Sparse (embedding) tables on this server, bound from {@code ps.sparse.*}.
 *
 * @param maxBytes bytes all sparse tables of this server may hold (values, optimizer state, ids and index);
 *                 a push that would create rows beyond it is refused with RESOURCE_EXHAUSTED. 0 (the
 *                 default) means half of the JVM's maximum heap.
 */
@Validated
@ConfigurationProperties("ps.sparse")
public record SparseProperties(@DefaultValue("0") DataSize maxBytes) {

    /** Checks the cap is not negative. */
    public SparseProperties {
        if (maxBytes.toBytes() < 0) {
            throw new IllegalArgumentException("ps.sparse.max-bytes must be >= 0 (0 = half the heap), got " + maxBytes);
        }
    }

    /** @return the cap in bytes, the default resolved against this JVM's heap */
    public long resolvedMaxBytes() {
        return maxBytes.toBytes() == 0 ? Runtime.getRuntime().maxMemory() / 2 : maxBytes.toBytes();
    }
}

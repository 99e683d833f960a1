package io.jvmps.common.codec;

import java.util.Arrays;

/**
 * A pull request: the keys wanted from one server, and the version each must have reached.
 *
 * @param minVersion the server answers once every key has at least this many updates applied
 *                   (in sync mode: the step the worker is about to compute); 0 to not wait
 * @param sender     rank of the requesting worker
 * @param keys       slice keys, in the order the answer's chunks will follow
 */
public record SliceRequest(long minVersion, int sender, long[] keys) {
    @Override
    public boolean equals(Object o) {
        return o instanceof SliceRequest r && r.minVersion == minVersion && r.sender == sender
                && Arrays.equals(r.keys, keys);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(minVersion) * 31 + sender * 17 + Arrays.hashCode(keys);
    }

    @Override
    public String toString() {
        return "SliceRequest[minVersion=" + minVersion + ", sender=" + sender + ", keys=" + keys.length + "]";
    }
}

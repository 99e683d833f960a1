package io.jvmps.server.api;

import org.springframework.stereotype.Component;

/**
 * The handlers {@link DataPathResponder} dispatches the data routes to, one per operation. Immutable.
 *
 * @param init   dense init
 * @param push   dense push
 * @param pull   dense pull
 * @param sparse sparse pull and push
 */
@Component
public record DataHandlers(DenseInit init, DensePush push, DensePull pull, SparseController sparse) {
}

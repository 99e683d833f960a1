package io.jvmps.common.protocol;

/**
 * A server's answer to a {@link DenseDeclaration}.
 *
 * @param rank           the answering server's rank
 * @param step           the step the server's slices are at: 0 for a fresh job, the checkpoint's step
 *                       when the server restored one (workers resume their schedule there)
 * @param restoredSlices slices this declaration created from the checkpoint (0 when none or when an
 *                       earlier declaration already did)
 * @param checkpoint     the restored checkpoint's directory, or empty
 */
public record DenseDeclared(int rank, long step, int restoredSlices, String checkpoint) {
}

package io.jvmps.server.cluster;

/** How the process ends when it cannot join the cluster; replaceable in tests. */
@FunctionalInterface
public interface ExitAction {
    /**
     * @param code    non-zero exit status
     * @param message why, logged before exiting
     */
    void exit(int code, String message);
}

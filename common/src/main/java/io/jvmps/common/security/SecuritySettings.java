package io.jvmps.common.security;

import java.nio.file.Path;

/**
 * The {@code ps.security.*} settings every role shares.
 *
 * @param secret       {@code ps.security.secret}: the cluster secret; blank means "read or generate
 *                     {@code secretFile}"
 * @param secretFile   {@code ps.security.secret-file}: where a generated secret is kept (default
 *                     {@code ~/.jvm-ps/cluster-secret})
 * @param protectReads {@code ps.security.protect-reads}: whether GET requests other than health and
 *                     info need the secret too
 * @param tlsBundle    {@code ps.security.tls.bundle}: the Spring SSL bundle securing this node's servers
 *                     and connections; blank means plain TCP and HTTP
 */
public record SecuritySettings(String secret, Path secretFile, boolean protectReads, String tlsBundle) {
}

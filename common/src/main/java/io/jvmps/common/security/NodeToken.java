package io.jvmps.common.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A node's own credential. The scheduler draws one at random for every registration and answers it to that node
 * only (never in a cluster view, never logged); the node sends it with every call made in its own name: the
 * HTTP header {@value #HTTP_HEADER} on heartbeats, leaving, progress, results, data leases and failure reports,
 * and the RSocket SETUP metadata entry {@value #SETUP_MIME_TYPE} ({@code <nodeId> <token>}, UTF-8) on connections
 * to servers. Holding the cluster secret lets a process register; only the token lets it speak as a given node.
 * Tokens are 32 random bytes, base64url without padding (43 characters). Stateless and thread-safe.
 */
public final class NodeToken {
    /** HTTP header that carries the calling node's token. */
    public static final String HTTP_HEADER = "X-PS-Node-Token";
    /** Metadata MIME type of a connection's node identity in an RSocket SETUP frame. */
    public static final String SETUP_MIME_TYPE = "message/x.jvmps.node-identity";

    private static final int BYTES = 32;

    private NodeToken() {
    }

    /** @return a fresh token drawn from {@code random} */
    public static String generate(SecureRandom random) {
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** @return whether {@code presented} is {@code expected}, compared in constant time; false if either is null */
    public static boolean matches(String expected, String presented) {
        if (expected == null || presented == null) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the SETUP metadata content that names {@code nodeId} and proves it with {@code token} */
    public static String setupValue(String nodeId, String token) {
        return nodeId + " " + token;
    }
}

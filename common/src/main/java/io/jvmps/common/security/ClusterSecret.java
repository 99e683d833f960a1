package io.jvmps.common.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Consumer;

/**
 * The secret every node of one cluster shares. Servers and workers send it to the scheduler in the
 * HTTP header {@code Authorization: Bearer <secret>} and to each other in the RSocket SETUP frame
 * (composite metadata entry of type {@link #SETUP_MIME_TYPE}, UTF-8). Receivers compare in constant
 * time. Neither the secret nor anything derived from it (a hash prefix helps guess a weak one) is ever
 * logged; a generated one is only written to its file. Guessable values (a shipped placeholder, too
 * few distinct characters) are refused. Immutable and thread-safe.
 */
public final class ClusterSecret {
    /** Metadata MIME type of the secret in an RSocket SETUP frame. */
    public static final String SETUP_MIME_TYPE = "message/x.jvmps.cluster-secret";
    /** HTTP header carrying the secret. */
    public static final String HTTP_HEADER = "Authorization";
    /** Scheme prefix of {@link #HTTP_HEADER}'s value. */
    public static final String HTTP_SCHEME = "Bearer ";
    /** Shortest secret accepted from configuration, in characters. */
    public static final int MIN_LENGTH = 16;
    /** Fewest distinct characters a secret must have (a random 16-character one has about 14). */
    public static final int MIN_DISTINCT = 8;

    private final byte[] value;
    private final String text;

    private ClusterSecret(String text) {
        this.text = text;
        this.value = text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param text the secret, at least {@link #MIN_LENGTH} characters, no surrounding white space
     * @return the secret
     * @throws IllegalArgumentException naming {@code ps.security.secret} when it is too short
     */
    public static ClusterSecret of(String text) {
        if (text == null || text.strip().length() < MIN_LENGTH || !text.strip().equals(text)) {
            throw new IllegalArgumentException("ps.security.secret must be at least " + MIN_LENGTH
                    + " characters without surrounding spaces (got " + (text == null ? 0 : text.length())
                    + "); unset it to have one generated into ps.security.secret-file");
        }
        String weakness = weakness(text);
        if (weakness != null) {
            throw new IllegalArgumentException("ps.security.secret " + weakness + "; use a random value, e.g. "
                    + "`openssl rand -hex 32`, or unset it to have one generated into ps.security.secret-file");
        }
        return new ClusterSecret(text);
    }

    /** @return why a secret is too easy to guess (a shipped placeholder, or too few distinct characters), or null */
    static String weakness(String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("replace") || lower.contains("changeme") || lower.contains("change-me")) {
            return "is a placeholder (it says to replace it)";
        }
        if (text.chars().distinct().count() < MIN_DISTINCT) {
            return "has fewer than " + MIN_DISTINCT + " distinct characters";
        }
        return null;
    }

    /**
     * The configured secret if there is one, else the one in {@code file}, else a new random one written
     * to {@code file} (created atomically with mode 600, so nodes starting together on one machine agree
     * on the first one written). A generated secret is announced through {@code announce}.
     *
     * @param configured {@code ps.security.secret}, may be blank
     * @param file       {@code ps.security.secret-file}
     * @param announce   receives a one-line message when a secret was generated
     * @return the secret
     */
    public static ClusterSecret resolve(String configured, Path file, Consumer<String> announce) {
        if (configured != null && !configured.isBlank()) {
            return of(configured);
        }
        try {
            if (Files.exists(file)) {
                return read(file);
            }
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".cluster-secret", ".tmp");
            try {
                restrict(tmp);
                Files.writeString(tmp, generated + "\n", StandardCharsets.UTF_8);
                Files.createLink(file, tmp);   // fails if another node wrote its secret first
                announce.accept("No cluster secret configured: generated one and stored it in " + file
                        + " (readable by this user only). Give every node of this cluster the same one: copy the "
                        + "file, or set PS_SECURITY_SECRET to its content");
            } catch (FileAlreadyExistsException lostTheRace) {
                // another node on this machine generated it a moment earlier: use theirs
            } finally {
                Files.deleteIfExists(tmp);
            }
            return read(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the cluster secret file " + file
                    + " (ps.security.secret-file): " + e.getMessage(), e);
        }
    }

    private static ClusterSecret read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (text.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("the cluster secret in " + file + " (ps.security.secret-file) is shorter"
                    + " than " + MIN_LENGTH + " characters; delete the file to have a new one generated");
        }
        return new ClusterSecret(text);
    }

    private static void restrict(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException | IOException notPosix) {
            // best effort on file systems without POSIX permissions
        }
    }

    /** @return whether {@code candidate} is this secret (constant time; false for null) */
    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(value, candidate.getBytes(StandardCharsets.UTF_8));
    }

    /** @return whether an {@code Authorization} header value carries this secret */
    public boolean matchesHeader(String headerValue) {
        return headerValue != null && headerValue.startsWith(HTTP_SCHEME)
                && matches(headerValue.substring(HTTP_SCHEME.length()));
    }

    /** @return the value of the {@link #HTTP_HEADER} header */
    public String headerValue() {
        return HTTP_SCHEME + text;
    }

    /** @return the secret itself, for sending it; never log it */
    public String reveal() {
        return text;
    }

    @Override
    public String toString() {
        return "ClusterSecret[hidden]";
    }
}

package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The jars in the worker's plugin folder ({@code ps.worker.plugins-dir}), e.g. a {@link ModelProvider}
 * of the user's, on a class loader of their own whose parent is the worker's: plugin classes see the
 * worker's (and nd4j's) classes. Jars are read in name order. A missing folder means no plugins.
 */
public final class PluginJars {
    private static final Logger log = LoggerFactory.getLogger(PluginJars.class);

    private PluginJars() {
    }

    /**
     * @param dir    the plugin folder
     * @param parent the worker's class loader
     * @return a class loader over the folder's jars, or {@code parent} when there are none
     * @throws PsException INVALID_ARGUMENT when {@code dir} exists but is not a folder
     */
    public static ClassLoader loader(Path dir, ClassLoader parent) {
        if (!Files.exists(dir)) {
            return parent;
        }
        if (!Files.isDirectory(dir)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.plugins-dir=" + dir.toAbsolutePath()
                    + " is not a folder");
        }
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path jar : files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                urls.add(jar.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the plugin folder " + dir.toAbsolutePath(), e);
        }
        if (urls.isEmpty()) {
            return parent;
        }
        log.info("Plugin jars from {}: {}", dir.toAbsolutePath(), urls.stream().map(u -> Path.of(u.getPath())
                .getFileName().toString()).toList());
        return new URLClassLoader("jvm-ps-plugins", urls.toArray(URL[]::new), parent);
    }
}

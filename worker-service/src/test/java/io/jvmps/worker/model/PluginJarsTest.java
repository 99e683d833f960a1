package io.jvmps.worker.model;

import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginJarsTest {
    @TempDir
    Path dir;

    private final ClassLoader parent = getClass().getClassLoader();

    @Test
    void withoutJarsTheWorkersOwnLoaderServes() throws Exception {
        assertThat(PluginJars.loader(dir.resolve("absent"), parent)).isSameAs(parent);
        Files.writeString(dir.resolve("notes.txt"), "no jar here");
        assertThat(PluginJars.loader(dir, parent)).isSameAs(parent);
    }

    @Test
    void theFoldersJarsInNameOrderOnALoaderBelowTheWorkers() throws Exception {
        Files.write(dir.resolve("b.jar"), new byte[0]);
        Files.write(dir.resolve("a.jar"), new byte[0]);
        ClassLoader loader = PluginJars.loader(dir, parent);
        assertThat(loader).isInstanceOf(URLClassLoader.class);
        assertThat(loader.getParent()).isSameAs(parent);
        assertThat(Arrays.stream(((URLClassLoader) loader).getURLs()).map(u -> Path.of(u.getPath()).getFileName()
                .toString())).containsExactly("a.jar", "b.jar");
    }

    @Test
    void aFileInsteadOfAFolderIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("plugins"), "x");
        assertThatThrownBy(() -> PluginJars.loader(file, parent)).isInstanceOf(PsException.class)
                .hasMessageContaining("ps.worker.plugins-dir=").hasMessageContaining("is not a folder");
    }
}

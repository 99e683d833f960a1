package io.jvmps.cluster;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A user's {@code ModelProvider}, compiled from source here against the worker's classes and packed into a
 * jar with its {@code META-INF/services} entry, as a user's build would.
 */
final class ProviderJar {
    static final String NAME = "wide-softmax";
    /** Parameters of the provider's model on 784 inputs and 10 classes. */
    static final long PARAMETERS = 784 * 32 + 32 + 32 * 10 + 10;
    private static final String CLASS = "com.example.models.WideSoftmaxProvider";
    private static final String SOURCE = """
            package com.example.models;

            import io.jvmps.worker.model.InitScheme;
            import io.jvmps.worker.model.ModelProvider;
            import io.jvmps.worker.model.ParamDef;
            import io.jvmps.worker.model.SameDiffModel;
            import io.jvmps.worker.model.TrainableModel;
            import java.util.List;

            public final class WideSoftmaxProvider implements ModelProvider {
                public String name() {
                    return "wide-softmax";
                }

                public TrainableModel create(int inputSize, int numClasses) {
                    return new WideSoftmax(inputSize, numClasses);
                }

                static final class WideSoftmax extends SameDiffModel {
                    WideSoftmax(int in, int k) {
                        super("wide-softmax", in, k, List.of(
                                ParamDef.of("proj_W", InitScheme.XAVIER_NORMAL, in, 32, in, 32),
                                ParamDef.of("proj_b", InitScheme.ZEROS, 1, 32, 32),
                                ParamDef.of("cls_W", InitScheme.XAVIER_NORMAL, 32, k, 32, k),
                                ParamDef.of("cls_b", InitScheme.ZEROS, 1, k, k)),
                                (sd, x, p) -> sd.nn().linear(sd.nn().relu(sd.nn().linear(x, p.get("proj_W"),
                                        p.get("proj_b")), 0), p.get("cls_W"), p.get("cls_b")));
                    }
                }
            }
            """;

    private ProviderJar() {
    }

    /** @return the jar, written into {@code dir} */
    static Path build(Path dir) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/com/example/models"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path source = Files.writeString(src.resolve("WideSoftmaxProvider.java"), SOURCE);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, "-cp", System.getProperty("java.class.path"), "-d",
                classes.toString(), source.toString());
        if (code != 0) {
            throw new IllegalStateException("the provider does not compile:\n" + errors);
        }
        Path jar = Files.createDirectories(dir.resolve("plugins")).resolve("wide-softmax.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/io.jvmps.worker.model.ModelProvider"));
            OutputStream entry = out;
            entry.write((CLASS + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}

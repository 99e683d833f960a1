package io.jvmps.cluster;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the cluster tests find the repository (system property {@code ps.repo.dir}, default {@code ..}) and MNIST. */
final class TestPaths {
    private TestPaths() {
    }

    /** @return the repository root, absolute */
    static Path repo() {
        return Path.of(System.getProperty("ps.repo.dir", "..")).toAbsolutePath().normalize();
    }

    /**
     * @return {@code <repo>/data/mnist}
     * @throws AssertionError naming the folder and the script that fetches it when it is missing
     */
    static Path mnist() {
        Path data = repo().resolve("data/mnist");
        if (!Files.isDirectory(data)) {
            throw new AssertionError("MNIST missing at " + data + ": run scripts/fetch-mnist.sh");
        }
        return data;
    }

    /**
     * @return {@code <repo>/data/movielens}, with its two ratings files
     * @throws AssertionError naming the folder and the script that fetches it when it is missing
     */
    static Path movielens() {
        Path data = repo().resolve("data/movielens");
        if (!Files.isRegularFile(data.resolve("ratings-train.csv"))) {
            throw new AssertionError("MovieLens missing at " + data + ": run scripts/fetch-movielens.sh");
        }
        return data;
    }

    /**
     * @param folder an example project's folder under {@code examples/}, e.g. {@code mnist-library}
     * @return the example program's class path: its classes and the dependencies its build listed
     * @throws AssertionError naming the command that builds it when it is not built
     */
    static String exampleClassPath(String folder) throws java.io.IOException {
        Path example = repo().resolve("examples").resolve(folder).resolve("target");
        if (!Files.isRegularFile(example.resolve("classpath.txt"))) {
            throw new AssertionError("example " + folder + " is not built: ./mvnw -q -f examples/" + folder
                    + "/pom.xml package -DskipTests");
        }
        return example.resolve("classes") + java.io.File.pathSeparator
                + Files.readString(example.resolve("classpath.txt")).trim();
    }
}

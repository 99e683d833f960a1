package io.jvmps.scheduler;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The scheduler never touches tensors: nd4j and javacpp must stay off its classpath. */
class NoTensorDependencyTest {

    @Test
    void nd4jAndJavacppAreNotOnTheClasspath() {
        assertThatThrownBy(() -> Class.forName("org.nd4j.linalg.factory.Nd4j"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("org.bytedeco.javacpp.Loader"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}

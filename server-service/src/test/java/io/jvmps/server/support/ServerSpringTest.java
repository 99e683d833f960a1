package io.jvmps.server.support;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A whole server on random ports without a scheduler: one worker, sync mode, SGD with learning rate
 * 0.5 (every push applies at once as {@code p -= 0.5 g}), 5 s pull deadline, 2 s stream idle timeout. Test
 * classes sharing it
 * share one application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.rsocket.server.port=0",
        "ps.scheduler.enabled=false",
        "ps.cluster.worker-num=1",
        "ps.optimizer.type=SGD",
        "ps.optimizer.learning-rate=0.5",
        "ps.server.pull-timeout=5s",
        "ps.server.stream-idle-timeout=2s"})
@AutoConfigureWebTestClient(timeout = "30s")
public @interface ServerSpringTest {
}

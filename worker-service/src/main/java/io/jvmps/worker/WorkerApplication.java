package io.jvmps.worker;

import io.jvmps.worker.train.TrainingThread;
import io.jvmps.worker.train.WorkerJob;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.predict.PredictCommand;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The worker: once the application is up (status and health endpoints serving), trains on a
 * thread of its own against the servers, reports, and exits with 0 on success or 1 on failure
 * (unless {@code ps.worker.lifecycle.exit-on-finish=false}).
 */
@SpringBootApplication
@org.springframework.context.annotation.Import({io.jvmps.common.security.ClusterSecurityConfiguration.class,
        io.jvmps.common.http.HttpLimitsConfiguration.class})
public class WorkerApplication {

    /**
     * Starts the worker; with {@code predict} (or {@code clicks}) as the first argument, runs {@link PredictCommand}
     * (or {@link io.jvmps.worker.ctr.ClicksCommand}) instead (no Spring context, no cluster) and exits with its code.
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals(PredictCommand.NAME)) {
            quietLogging();
            System.exit(PredictCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.out,
                    System.err));
        }
        if (args.length > 0 && args[0].equals(io.jvmps.worker.ctr.ClicksCommand.NAME)) {
            quietLogging();
            System.exit(io.jvmps.worker.ctr.ClicksCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    System.out, System.err));
        }
        SpringApplication.run(WorkerApplication.class, args);
    }

    /**
     * Outside Spring Boot, logback logs everything at DEBUG; the command prints only warnings, and not nd4j's notes
     * about its own op tables (off in the worker's application.yml too), which say nothing about the user's model.
     */
    private static void quietLogging() {
        if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
        }
        for (String noisy : new String[] {"org.nd4j.imports.converters.ImportClassMapping",
                "org.nd4j.autodiff.functions.DifferentialFunction"}) {
            if (org.slf4j.LoggerFactory.getLogger(noisy) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.ERROR);
            }
        }
    }

    @Bean
    TrainingThread trainingThread(WorkerJob job, WorkerProperties props) {
        return new TrainingThread(job, props.lifecycle());
    }

    @Bean
    ApplicationRunner trainOnStart(TrainingThread training, Environment env, ConfigurableApplicationContext context) {
        return args -> training.start(env.getProperty("local.server.port", Integer.class, 0), context);
    }
}

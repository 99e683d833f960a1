package io.jvmps.cluster;

import io.jvmps.client.ClientSettings;
import io.jvmps.client.PsJob;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

/**
 * A user's smallest model, as a program of its own on the client library: one global bias {@code b} on the servers,
 * pulled each step and pushed the gradient {@code b - 3} of {@code (b - 3)^2 / 2}, recovering from a lost server as a
 * program must ({@link PsJob#resume}). Prints {@code RESULT bias=<b> steps=<n>}. Arguments: the scheduler as
 * {@code host:port}, the steps, a step to hold at and a signal file: before that step it prints
 * {@code WAITING at step <n>} and waits (at most 2 minutes) until the file exists, so a test can lose a server
 * mid-job. The secret comes from {@code PS_SECURITY_SECRET}.
 */
public final class BiasOnlyProgram {
    private BiasOnlyProgram() {
    }

    public static void main(String[] args) throws Exception {
        // a program configures its own logging (docs/client.md); without a file logback logs every frame at DEBUG
        if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.INFO);
        }
        String[] scheduler = args[0].split(":");
        int steps = Integer.parseInt(args[1]);
        long holdAt = Long.parseLong(args[2]);
        java.nio.file.Path signal = java.nio.file.Path.of(args[3]);
        ClientSettings settings = ClientSettings.of(scheduler[0], Integer.parseInt(scheduler[1]),
                System.getenv("PS_SECURITY_SECRET"));
        try (PsJob job = PsJob.join(settings)) {
            PsJob.DenseStart dense = job.declareDense(List.of(new ParamSpec("bias", new long[] {1})),
                    new INDArray[] {Nd4j.zeros(DataType.FLOAT, 1)}, steps);
            INDArray[] values = {Nd4j.zeros(DataType.FLOAT, 1)};
            long step = dense.startStep();
            while (step < steps) {
                if (step == holdAt && !java.nio.file.Files.exists(signal)) {
                    System.out.println("WAITING at step " + step);
                    if (!NodeProcess.until(java.time.Duration.ofMinutes(2), () -> java.nio.file.Files.exists(signal))) {
                        throw new IllegalStateException("no " + signal + " within 2 minutes");
                    }
                }
                try {
                    dense.client().pull(step, values);
                    float b = values[0].getFloat(0);
                    dense.client().push(step, new INDArray[] {Nd4j.createFromArray(b - 3f)});
                    step++;
                } catch (PsException e) {
                    ServerRecovery.Resumed resumed = job.resume(dense, e); // rethrows what is no server loss
                    dense = new PsJob.DenseStart(resumed.client(), dense.startStep(), dense.recovery());
                    step = resumed.step();
                }
            }
            dense.client().pull(step, values);
            System.out.println("RESULT bias=" + values[0].getFloat(0) + " steps=" + step);
        }
    }
}

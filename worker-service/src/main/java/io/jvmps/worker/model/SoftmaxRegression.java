package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.List;

/**
 * Multinomial logistic regression: {@code softmax(x W + b)} with {@code W [d, k]} and
 * {@code b [k]}. Tiny and convex, for fast equivalence and convergence tests.
 */
public final class SoftmaxRegression extends SameDiffModel {
    /** Name of the weight matrix {@code [d, k]}. */
    public static final String WEIGHTS = "W";
    /** Name of the bias vector {@code [k]}. */
    public static final String BIAS = "b";

    /**
     * @param inputSize  d, &gt;= 1
     * @param numClasses k, &gt;= 2
     * @throws PsException INVALID_ARGUMENT for sizes out of range
     */
    public SoftmaxRegression(int inputSize, int numClasses) {
        super("SOFTMAX", inputSize, numClasses, definitions(inputSize, numClasses),
                (sd, input, p) -> sd.nn().linear(input, p.get(WEIGHTS), p.get(BIAS)));
    }

    private static List<ParamDef> definitions(int inputSize, int numClasses) {
        if (inputSize < 1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "model SOFTMAX needs input size >= 1, got " + inputSize);
        }
        if (numClasses < 2) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "model SOFTMAX needs >= 2 classes, got " + numClasses);
        }
        return List.of(
                ParamDef.of(WEIGHTS, InitScheme.XAVIER_NORMAL, inputSize, numClasses, inputSize, numClasses),
                ParamDef.of(BIAS, InitScheme.ZEROS, 1, numClasses, numClasses));
    }
}

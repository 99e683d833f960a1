package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.enums.WeightsFormat;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv2DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.PaddingMode;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Pooling2DConfig;

import java.util.List;
import java.util.Map;

/**
 * LeNet-5 for 28x28 grey images given as {@code [n, 784]} rows (reshaped to NCHW
 * {@code [n, 1, 28, 28]} inside the graph): conv 5x5x6 (same) + ReLU + max-pool 2x2, conv 5x5x16
 * (valid) + ReLU + max-pool 2x2, dense 400-120 ReLU, 120-84 ReLU, 84-10. Convolution weights are
 * {@code [kH, kW, inC, outC]}. 61,706 parameters.
 */
public final class LeNet5 extends SameDiffModel {
    /** Input features: 28 x 28 pixels. */
    public static final int INPUTS = 784;
    /** Output classes. */
    public static final int CLASSES = 10;

    private static final int SIDE = 28;
    /** Mean and standard deviation of MNIST training pixels in [0, 1]: inputs are standardised in the graph. */
    private static final double PIXEL_MEAN = 0.1307;
    private static final double PIXEL_STD = 0.3081;

    /** Builds the graph with parameters from {@code initialParams(0)}. */
    public LeNet5() {
        super("LENET5", INPUTS, CLASSES, List.of(
                ParamDef.of("conv1_W", InitScheme.HE_NORMAL, 25, 150, 5, 5, 1, 6),
                ParamDef.of("conv1_b", InitScheme.ZEROS, 25, 150, 6),
                ParamDef.of("conv2_W", InitScheme.HE_NORMAL, 150, 400, 5, 5, 6, 16),
                ParamDef.of("conv2_b", InitScheme.ZEROS, 150, 400, 16),
                ParamDef.of("fc1_W", InitScheme.HE_NORMAL, 400, 120, 400, 120),
                ParamDef.of("fc1_b", InitScheme.ZEROS, 400, 120, 120),
                ParamDef.of("fc2_W", InitScheme.HE_NORMAL, 120, 84, 120, 84),
                ParamDef.of("fc2_b", InitScheme.ZEROS, 120, 84, 84),
                ParamDef.of("out_W", InitScheme.OUTPUT_NORMAL, 84, 10, 84, 10),
                ParamDef.of("out_b", InitScheme.ZEROS, 84, 10, 10)),
                LeNet5::logits);
    }

    /**
     * @return a LeNet-5, if the sizes are MNIST's
     * @throws PsException INVALID_ARGUMENT for any other input size or class count
     */
    public static LeNet5 create(int inputSize, int numClasses) {
        if (inputSize != INPUTS || numClasses != CLASSES) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "model LENET5 needs " + INPUTS
                    + " inputs (28x28 images) and " + CLASSES + " classes, got " + inputSize + " inputs and "
                    + numClasses + " classes");
        }
        return new LeNet5();
    }

    private static SDVariable logits(SameDiff sd, SDVariable input, Map<String, SDVariable> p) {
        SDVariable x = input.sub(PIXEL_MEAN).div(PIXEL_STD).reshape(-1, 1, SIDE, SIDE);
        x = sd.nn().relu(sd.cnn().conv2d(x, p.get("conv1_W"), p.get("conv1_b"), conv(PaddingMode.SAME)), 0);
        x = sd.cnn().maxPooling2d(x, pool());
        x = sd.nn().relu(sd.cnn().conv2d(x, p.get("conv2_W"), p.get("conv2_b"), conv(PaddingMode.VALID)), 0);
        x = sd.cnn().maxPooling2d(x, pool()).reshape(-1, 16 * 5 * 5);
        x = sd.nn().relu(sd.nn().linear(x, p.get("fc1_W"), p.get("fc1_b")), 0);
        x = sd.nn().relu(sd.nn().linear(x, p.get("fc2_W"), p.get("fc2_b")), 0);
        return sd.nn().linear(x, p.get("out_W"), p.get("out_b"));
    }

    private static Conv2DConfig conv(PaddingMode padding) {
        return Conv2DConfig.builder().kH(5).kW(5).sH(1).sW(1).dH(1).dW(1).paddingMode(padding)
                .dataFormat(Conv2DConfig.NCHW).weightsFormat(WeightsFormat.YXIO).build();
    }

    private static Pooling2DConfig pool() {
        return Pooling2DConfig.builder().kH(2).kW(2).sH(2).sW(2).isNHWC(false).build();
    }
}

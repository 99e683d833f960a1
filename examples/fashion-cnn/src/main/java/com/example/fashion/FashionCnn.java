package com.example.fashion;

import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.enums.WeightsFormat;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv2DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.PaddingMode;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Pooling2DConfig;
import org.nd4j.linalg.factory.Nd4j;

import java.io.File;

/**
 * Two convolutions with pooling and a small dense layer for 28x28 grey images in 10 classes, in the
 * variable names jvm-ps expects by default: placeholders {@code input [-1, 784]} (pixels scaled to [0, 1])
 * and {@code label [-1, 10]} (one-hot), outputs {@code probabilities} and {@code loss}. Layout:
 * 5x5 conv 16 + ReLU + 2x2 max-pool, 5x5 conv 32 + ReLU + 2x2 max-pool, dense 64 + ReLU, dense 10:
 * 114,314 parameters, He-initialised from a seed.
 */
public final class FashionCnn {
    private static final int SIDE = 28;
    private static final int CLASSES = 10;

    private FashionCnn() {
    }

    /** Writes the untrained network to the file named by the first argument. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: FashionCnn OUTPUT_FILE");
            System.exit(2);
        }
        File out = new File(args[0]);
        if (out.getAbsoluteFile().getParentFile() != null) {
            out.getAbsoluteFile().getParentFile().mkdirs();
        }
        build(42).save(out, false);
        System.out.println("wrote " + out.getAbsolutePath());
    }

    /**
     * @param seed initialisation seed
     * @return the network with its loss set
     */
    public static SameDiff build(long seed) {
        SameDiff sd = SameDiff.create();
        Nd4j.getRandom().setSeed(seed);
        SDVariable input = sd.placeHolder("input", DataType.FLOAT, -1, SIDE * SIDE);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, CLASSES);
        SDVariable conv1W = sd.var("conv1_W", he(25, 5, 5, 1, 16));
        SDVariable conv1b = sd.var("conv1_b", Nd4j.zeros(DataType.FLOAT, 16));
        SDVariable conv2W = sd.var("conv2_W", he(25 * 16, 5, 5, 16, 32));
        SDVariable conv2b = sd.var("conv2_b", Nd4j.zeros(DataType.FLOAT, 32));
        SDVariable denseW = sd.var("dense_W", he(7 * 7 * 32, 7 * 7 * 32, 64));
        SDVariable denseb = sd.var("dense_b", Nd4j.zeros(DataType.FLOAT, 64));
        SDVariable outW = sd.var("out_W", Nd4j.randn(DataType.FLOAT, 64, CLASSES).muli(Math.sqrt(1.0 / 64)));
        SDVariable outb = sd.var("out_b", Nd4j.zeros(DataType.FLOAT, CLASSES));

        SDVariable x = input.reshape(-1, 1, SIDE, SIDE);
        x = sd.cnn().maxPooling2d(sd.nn().relu(sd.cnn().conv2d(x, conv1W, conv1b, conv()), 0), pool());
        x = sd.cnn().maxPooling2d(sd.nn().relu(sd.cnn().conv2d(x, conv2W, conv2b, conv()), 0), pool());
        x = sd.nn().relu(sd.nn().linear(x.reshape(-1, 7 * 7 * 32), denseW, denseb), 0);
        SDVariable logits = sd.nn().linear(x, outW, outb);
        sd.nn().softmax("probabilities", logits, 1);
        sd.loss().softmaxCrossEntropy("loss", label, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.setLossVariables("loss");
        return sd;
    }

    private static INDArray he(int fanIn, long... shape) {
        return Nd4j.randn(DataType.FLOAT, shape).muli(Math.sqrt(2.0 / fanIn));
    }

    private static Conv2DConfig conv() {
        return Conv2DConfig.builder().kH(5).kW(5).sH(1).sW(1).dH(1).dW(1).paddingMode(PaddingMode.SAME)
                .dataFormat(Conv2DConfig.NCHW).weightsFormat(WeightsFormat.YXIO).build();
    }

    private static Pooling2DConfig pool() {
        return Pooling2DConfig.builder().kH(2).kW(2).sH(2).sW(2).isNHWC(false).build();
    }
}

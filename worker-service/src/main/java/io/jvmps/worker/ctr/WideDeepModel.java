package io.jvmps.worker.ctr;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.client.train.FreshSessionArrays;
import io.jvmps.worker.model.InitScheme;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.api.OutAndGrad;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.autodiff.loss.LossReduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Wide and deep (Cheng et al., 2016) for click prediction, in SameDiff. The embedding rows come in as
 * placeholders, looked up from the sparse tables by an {@link EmbeddingLookup}, and their gradients go back
 * out the same way:
 * <pre>
 *   wide [n, W]    one weight per id (field values and crossed pairs), from a dim-1 table
 *   deep [n, F*d]  the F field embeddings of dim d, concatenated
 *   logit = wide wide_W + W3 relu(W2 relu(W1 deep + b1) + b2) + b3   (wide_W [W, 1] starts at ones)
 *   loss  = mean sigmoid cross-entropy against the click label
 * </pre>
 * The seven dense parameters are the PS's dense parameters, in {@link #params()} order. Not thread-safe.
 */
public final class WideDeepModel {
    static final String WIDE = "wide";
    static final String DEEP = "deep";
    static final String LABEL = "label";
    static final String LOSS = "loss";
    static final String PROBABILITY = "probability";
    private static final List<String> NAMES = List.of("W1", "b1", "W2", "b2", "W3", "b3", "wide_W");

    private final int wideWidth;
    private final int deepWidth;
    private final List<ParamSpec> params;
    private final SameDiff sd = SameDiff.create();

    /**
     * @param wideWidth ids per example in the wide part
     * @param fields    embedded fields F
     * @param dim       embedding dim d
     * @param hidden1   first hidden layer width
     * @param hidden2   second hidden layer width
     */
    public WideDeepModel(int wideWidth, int fields, int dim, int hidden1, int hidden2) {
        this.wideWidth = wideWidth;
        this.deepWidth = fields * dim;
        this.params = List.of(
                new ParamSpec("W1", new long[] {deepWidth, hidden1}), new ParamSpec("b1", new long[] {hidden1}),
                new ParamSpec("W2", new long[] {hidden1, hidden2}), new ParamSpec("b2", new long[] {hidden2}),
                new ParamSpec("W3", new long[] {hidden2, 1}), new ParamSpec("b3", new long[] {1}),
                new ParamSpec("wide_W", new long[] {wideWidth, 1}));
        SDVariable wide = sd.placeHolder(WIDE, DataType.FLOAT, -1, wideWidth);
        SDVariable deep = sd.placeHolder(DEEP, DataType.FLOAT, -1, deepWidth);
        SDVariable label = sd.placeHolder(LABEL, DataType.FLOAT, -1, 1);
        List<SDVariable> vars = new ArrayList<>();
        for (ParamSpec p : params) {
            vars.add(sd.var(p.name(), Nd4j.zeros(DataType.FLOAT, p.shape())));
        }
        SDVariable h1 = sd.nn().relu(sd.nn().linear(deep, vars.get(0), vars.get(1)), 0);
        SDVariable h2 = sd.nn().relu(sd.nn().linear(h1, vars.get(2), vars.get(3)), 0);
        SDVariable deepLogit = sd.nn().linear(h2, vars.get(4), vars.get(5));
        // SameDiff returns a placeholder's gradient only along paths through a trainable variable, so the wide
        // weights are summed with a learned per-position scale (starting at one) rather than a plain sum
        SDVariable wideLogit = wide.mmul(vars.get(6));
        SDVariable logit = deepLogit.add(wideLogit);
        sd.nn().sigmoid(PROBABILITY, logit);
        sd.loss().sigmoidCrossEntropy(LOSS, label, logit, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.setLossVariables(LOSS);
        sd.createGradFunction(WIDE, DEEP); // the looked-up rows need their gradients too
    }

    /** @return the dense parameters, in order */
    public List<ParamSpec> params() {
        return params;
    }

    /** @return seeded Xavier-normal weights, zero biases and a wide scale of ones, in {@link #params()} order */
    public INDArray[] initialParams(long seed) {
        Random random = new Random(seed);
        INDArray[] out = new INDArray[params.size()];
        for (int i = 0; i < params.size(); i++) {
            long[] shape = params.get(i).shape();
            int count = (int) params.get(i).elements();
            float[] values = new float[count];
            if (params.get(i).name().equals("wide_W")) {
                java.util.Arrays.fill(values, 1f);
            } else if (shape.length == 2) {
                values = InitScheme.XAVIER_NORMAL.sample(random, count, (int) shape[0], (int) shape[1]);
            }
            out[i] = Nd4j.create(values, shape, DataType.FLOAT);
        }
        return out;
    }

    /** @return one fresh array per parameter, shaped like it, for pulls */
    public INDArray[] emptyParams() {
        return params.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape(), 'c')).toArray(INDArray[]::new);
    }

    /** Sets the dense parameters (in {@link #params()} order). */
    public void setParams(INDArray[] values) {
        for (int i = 0; i < params.size(); i++) {
            sd.getVariable(NAMES.get(i)).getArr().assign(values[i].reshape('c', params.get(i).shape()));
        }
    }

    /**
     * One forward and backward pass.
     *
     * @param wide   {@code n * wideWidth} looked-up wide weights
     * @param deep   {@code n * F * d} looked-up embeddings
     * @param labels n clicks (0 or 1)
     * @return the mean loss, dense gradients and the gradients of every looked-up row position
     */
    public Step step(float[] wide, float[] deep, float[] labels) {
        int n = labels.length;
        Map<String, INDArray> inputs = Map.of(
                WIDE, FloatArrays.toNd4j(wide, n, wideWidth),
                DEEP, FloatArrays.toNd4j(deep, n, deepWidth),
                LABEL, FloatArrays.toNd4j(labels, n, 1));
        List<String> wanted = new ArrayList<>(NAMES);
        wanted.add(WIDE);
        wanted.add(DEEP);
        FreshSessionArrays.apply(sd);
        OutAndGrad result = sd.calculateGradientsAndOutputs(inputs, List.of(LOSS), wanted);
        Map<String, INDArray> grads = result.getGradients();
        INDArray[] dense = NAMES.stream().map(grads::get).toArray(INDArray[]::new);
        return new Step(result.getOutputs().get(LOSS).getDouble(0), dense,
                FloatArrays.toFloats(grads.get(WIDE)), FloatArrays.toFloats(grads.get(DEEP)));
    }

    /** @return the click probability of each of the {@code n} examples */
    public float[] predict(float[] wide, float[] deep, int n) {
        Map<String, INDArray> inputs = Map.of(
                WIDE, FloatArrays.toNd4j(wide, n, wideWidth),
                DEEP, FloatArrays.toNd4j(deep, n, deepWidth));
        FreshSessionArrays.apply(sd);
        return FloatArrays.toFloats(sd.output(inputs, PROBABILITY).get(PROBABILITY));
    }

    /**
     * One pass's results.
     *
     * @param loss      mean loss of the batch
     * @param dense     gradients of the dense parameters, in order
     * @param wideGrad  gradient of each wide position, {@code n * wideWidth}
     * @param deepGrad  gradient of each deep position, {@code n * F * d}
     */
    public record Step(double loss, INDArray[] dense, float[] wideGrad, float[] deepGrad) {
    }
}

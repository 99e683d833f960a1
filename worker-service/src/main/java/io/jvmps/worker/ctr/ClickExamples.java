package io.jvmps.worker.ctr;

import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Map;

/**
 * Generated clicks as the input of {@link WideDeepGraph}: no dense features ({@code [n, 0]}), the click as a binary
 * label {@code [n, 1]} of 0 and 1, and two id arrays, int64: {@value WideDeepGraph#WIDE_IDS} {@code [n, W]} (each
 * example's field values and crossed pairs, {@link ClickData#wideIds}) and {@value WideDeepGraph#DEEP_IDS}
 * {@code [n, F]} (its field values, {@link ClickData#deepIds}). Immutable and thread-safe, as the data is.
 */
public final class ClickExamples implements Examples {
    private final ClickData data;

    /** @param data the generated examples */
    public ClickExamples(ClickData data) {
        this.data = data;
    }

    @Override
    public int size() {
        return data.size();
    }

    /** @return 0: every input is an id */
    @Override
    public int featureSize() {
        return 0;
    }

    /** @return 2: a click or none */
    @Override
    public int numClasses() {
        return 2;
    }

    @Override
    public LabeledData gather(int[] indices) {
        int n = indices.length;
        float[] labels = new float[n];
        for (int i = 0; i < n; i++) {
            labels[i] = data.label(indices[i]);
        }
        ClickDataSpec spec = data.spec();
        return new LabeledData(Nd4j.create(DataType.FLOAT, n, 0), Nd4j.create(labels, new long[] {n, 1}, DataType.FLOAT),
                Map.of(WideDeepGraph.WIDE_IDS, Nd4j.createFromArray(data.wideIds(indices)).reshape(n, spec.wideIds()),
                        WideDeepGraph.DEEP_IDS, Nd4j.createFromArray(data.deepIds(indices)).reshape(n, spec.fields())));
    }
}

package io.jvmps.worker.config;

import io.jvmps.client.train.GraphNames;
import jakarta.validation.constraints.NotBlank;

/**
 * The variables of a model file's graph ({@code ps.worker.graph.*}), used when {@code ps.worker.model}
 * names a SameDiff model file. The defaults are the names the built-in models use.
 */
public class GraphProperties {
    /** Feature placeholder, a FLOAT matrix {@code [-1, d]}. */
    @NotBlank
    private String input = GraphNames.DEFAULT.input();
    /** One-hot label placeholder, a FLOAT matrix {@code [-1, k]}. */
    @NotBlank
    private String label = GraphNames.DEFAULT.label();
    /** The loss training minimises. */
    @NotBlank
    private String loss = GraphNames.DEFAULT.loss();
    /** Class scores {@code [n, k]}; the arg-max is the predicted class. */
    @NotBlank
    private String prediction = GraphNames.DEFAULT.prediction();

    /** @return the names as one value */
    public GraphNames names() {
        return new GraphNames(input, label, loss, prediction);
    }

    public String getInput() {
        return input;
    }

    public void setInput(String input) {
        this.input = input;
    }

    public String getLabel() {
        return label;
    }

    public void setLabel(String label) {
        this.label = label;
    }

    public String getLoss() {
        return loss;
    }

    public void setLoss(String loss) {
        this.loss = loss;
    }

    public String getPrediction() {
        return prediction;
    }

    public void setPrediction(String prediction) {
        this.prediction = prediction;
    }
}

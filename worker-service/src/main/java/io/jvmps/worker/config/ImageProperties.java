package io.jvmps.worker.config;

import io.jvmps.client.dataset.ImageLayout;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Image folders ({@code ps.worker.dataset.image.*}, with {@code ps.worker.dataset.format=IMAGES}): one sub-folder per
 * class, as {@link io.jvmps.client.dataset.ImageFolder} reads them, and the shape every image is brought to.
 *
 * @param trainDir the training folder of class folders
 * @param testDir  the test folder: its class folders must be among the training ones
 * @param height   pixels per column every image is resized to; 0 = the first training image's
 * @param width    pixels per row; 0 = the first training image's
 * @param channels 1 (grey) or 3 (RGB); 0 = the first training image's (1 for a grey image, else 3)
 */
public record ImageProperties(
        @NotNull @DefaultValue("") String trainDir,
        @NotNull @DefaultValue("") String testDir,
        @Min(0) @Max(ImageLayout.MAX_SIDE) @DefaultValue("0") int height,
        @Min(0) @Max(ImageLayout.MAX_SIDE) @DefaultValue("0") int width,
        @Min(0) @Max(3) @DefaultValue("0") int channels) {

    /** @return the layout these settings ask for (zeros taken from the first image) */
    public ImageLayout layout() {
        try {
            return new ImageLayout(height, width, channels);
        } catch (IllegalArgumentException e) {
            throw new io.jvmps.common.protocol.PsException(io.jvmps.common.protocol.ErrorCode.INVALID_ARGUMENT,
                    "ps.worker.dataset.image.*: " + e.getMessage());
        }
    }
}

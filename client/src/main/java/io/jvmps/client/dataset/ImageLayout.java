package io.jvmps.client.dataset;

/**
 * The shape every image of an {@link ImageFolder} is brought to: {@code height x width} pixels (resized with
 * bilinear interpolation) in {@code channels} channels (1: grey, 3: red, green, blue; alpha is dropped, as on
 * black). A row of features is the image channels first, {@code [channels, height, width]} flattened in C order
 * ({@code channels * height * width} floats), each value scaled to [0, 1] (the 8-bit value / 255). Immutable.
 *
 * @param height pixels per column, &gt;= 1 (0 while not yet taken from a first image)
 * @param width  pixels per row, &gt;= 1 (likewise)
 * @param channels 1 or 3 (0 likewise)
 */
public record ImageLayout(int height, int width, int channels) {
    /** The largest side accepted, so that a row stays a few MiB. */
    public static final int MAX_SIDE = 4096;

    /** Checks the values (0 meaning "from the first image" for each). */
    public ImageLayout {
        if (height < 0 || height > MAX_SIDE || width < 0 || width > MAX_SIDE) {
            throw new IllegalArgumentException("image height and width must be in [1, " + MAX_SIDE + "] (0: the "
                    + "first image's), got " + height + " x " + width);
        }
        if (channels != 0 && channels != 1 && channels != 3) {
            throw new IllegalArgumentException("image channels must be 1 (grey) or 3 (RGB) (0: the first image's), "
                    + "got " + channels);
        }
    }

    /** @return the layout to take whole from the first image */
    public static ImageLayout fromFirstImage() {
        return new ImageLayout(0, 0, 0);
    }

    /** @return whether every value is given */
    public boolean complete() {
        return height > 0 && width > 0 && channels > 0;
    }

    /** @return features per image, {@code channels * height * width} */
    public int features() {
        return channels * height * width;
    }

    @Override
    public String toString() {
        return channels + " x " + height + " x " + width;
    }
}

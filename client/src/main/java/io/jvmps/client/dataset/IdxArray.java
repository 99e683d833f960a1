package io.jvmps.client.dataset;

import java.util.Arrays;

/**
 * The raw content of an IDX file of unsigned bytes: the dimensions its header declares and the
 * bytes of the first {@code items} items (an item is one entry of the first dimension).
 *
 * @param headerDims dimensions declared by the header; {@code headerDims[0]} is the item count in the file
 * @param items      number of items actually read (at most {@code headerDims[0]})
 * @param data       {@code items * itemSize()} bytes, row-major
 */
public record IdxArray(int[] headerDims, int items, byte[] data) {

    /** Copies the dimensions so the record stays immutable in shape. */
    public IdxArray {
        headerDims = headerDims.clone();
    }

    /** @return bytes per item: the product of all dimensions after the first */
    public int itemSize() {
        int size = 1;
        for (int i = 1; i < headerDims.length; i++) {
            size *= headerDims[i];
        }
        return size;
    }

    /** @return the item count the header declares */
    public int declaredItems() {
        return headerDims[0];
    }

    /**
     * @param item index of an item, {@code 0 <= item < items}
     * @param offset byte offset inside the item
     * @return the unsigned byte value, 0..255
     */
    public int unsigned(int item, int offset) {
        return data[item * itemSize() + offset] & 0xFF;
    }

    @Override
    public String toString() {
        return "IdxArray" + Arrays.toString(headerDims) + " items=" + items;
    }
}

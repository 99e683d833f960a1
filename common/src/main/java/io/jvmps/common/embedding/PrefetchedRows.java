package io.jvmps.common.embedding;

import org.agrona.collections.Long2LongHashMap;

/**
 * Rows read in the background for the next batch, with an id-to-row index. Immutable once built.
 *
 * @param index position of each id's row in {@code rows}
 * @param rows  the rows, {@code dim} floats each, in read order
 */
record PrefetchedRows(Long2LongHashMap index, float[] rows) {

    PrefetchedRows(long[] ids, float[] rows) {
        this(byId(ids), rows);
    }

    /** @return the row's position, or -1 when it was not read */
    int indexOf(long id) {
        return (int) index.get(id);
    }

    private static Long2LongHashMap byId(long[] ids) {
        Long2LongHashMap index = new Long2LongHashMap(ids.length * 2, 0.65f, CacheSlots.ABSENT);
        for (int i = 0; i < ids.length; i++) {
            index.put(ids[i], i);
        }
        return index;
    }
}

package io.jvmps.server.consistency;

import io.jvmps.server.store.DenseSlice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Takes the locks of several slices in ascending key order (so two pushes can never deadlock) and
 * releases them in reverse; pulls woken by the release run only once every lock is free (a woken
 * pull snapshots slices under their locks, possibly on this thread). Stateless.
 */
final class SliceLocks {
    private SliceLocks() {
    }

    /** @return the gradients sorted by slice key, with every slice locked */
    static List<GradientPush.SliceGradient> lockAll(List<GradientPush.SliceGradient> gradients) {
        List<GradientPush.SliceGradient> sorted = gradients.stream()
                .sorted(Comparator.comparingLong(g -> g.slice().key()))
                .toList();
        int locked = 0;
        try {
            for (GradientPush.SliceGradient g : sorted) {
                g.slice().lock();
                locked++;
            }
            return sorted;
        } catch (RuntimeException e) {
            unlockAll(sorted.subList(0, locked));
            throw e;
        }
    }

    /** Releases what {@link #lockAll(List)} took, then wakes pulls whose versions were reached. */
    static void unlockAll(List<GradientPush.SliceGradient> locked) {
        List<CompletableFuture<Void>> wake = new ArrayList<>(0);
        for (int i = locked.size() - 1; i >= 0; i--) {
            locked.get(i).slice().unlock(wake);
        }
        wake.forEach(f -> f.complete(null));
    }
}

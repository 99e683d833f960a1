package io.jvmps.common.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;

import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: a {@link ByteBufAllocator} that delegates to a real allocator (with Netty's
 * {@link ResourceLeakDetector} at {@code PARANOID}) and remembers every buffer it hands out, so a
 * test can assert that each of them was released ({@code refCnt() == 0}) once the test released
 * what it owns. Derived buffers (slices, retained slices) keep their root alive, so a forgotten
 * derived buffer shows up as a root with a positive reference count. Not thread-safe.
 */
public final class LeakTrackingAllocator implements ByteBufAllocator {
    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private final ByteBufAllocator delegate;
    private final List<ByteBuf> handedOut = new ArrayList<>();

    private LeakTrackingAllocator(ByteBufAllocator delegate) {
        this.delegate = delegate;
    }

    /** @return a tracker over a fresh pooled allocator preferring direct buffers */
    public static LeakTrackingAllocator pooledDirect() {
        return new LeakTrackingAllocator(new PooledByteBufAllocator(true));
    }

    /** @return a tracker over a fresh unpooled allocator preferring heap buffers */
    public static LeakTrackingAllocator unpooledHeap() {
        return new LeakTrackingAllocator(new UnpooledByteBufAllocator(false));
    }

    /** @return how many buffers this allocator handed out */
    int allocations() {
        return handedOut.size();
    }

    /** @return the buffers handed out that still hold at least one reference */
    List<ByteBuf> unreleased() {
        return handedOut.stream().filter(b -> b.refCnt() != 0).toList();
    }

    /** @throws AssertionError naming every buffer that still holds a reference */
    public void assertAllReleased() {
        List<ByteBuf> leaked = unreleased();
        if (!leaked.isEmpty()) {
            StringBuilder sb = new StringBuilder().append(leaked.size()).append(" of ").append(handedOut.size())
                    .append(" buffers not released:");
            for (ByteBuf b : leaked) {
                sb.append("\n  refCnt=").append(b.refCnt()).append(' ').append(b);
            }
            throw new AssertionError(sb.toString());
        }
    }

    private <T extends ByteBuf> T track(T buf) {
        handedOut.add(buf);
        return buf;
    }

    @Override
    public ByteBuf buffer() {
        return track(delegate.buffer());
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return track(delegate.buffer(initialCapacity));
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return track(delegate.buffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf ioBuffer() {
        return track(delegate.ioBuffer());
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return track(delegate.ioBuffer(initialCapacity));
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.ioBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf heapBuffer() {
        return track(delegate.heapBuffer());
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return track(delegate.heapBuffer(initialCapacity));
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.heapBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf directBuffer() {
        return track(delegate.directBuffer());
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return track(delegate.directBuffer(initialCapacity));
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return track(delegate.directBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return track(delegate.compositeBuffer());
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return track(delegate.compositeBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return track(delegate.compositeHeapBuffer());
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return track(delegate.compositeHeapBuffer(maxNumComponents));
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return track(delegate.compositeDirectBuffer());
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return track(delegate.compositeDirectBuffer(maxNumComponents));
    }

    @Override
    public boolean isDirectBufferPooled() {
        return delegate.isDirectBufferPooled();
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        return delegate.calculateNewCapacity(minNewCapacity, maxCapacity);
    }
}

package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The most recent samples of one tag, oldest first, at most {@code capacity}, packed into one
 * {@code long[]} of {@value #STRIDE} words per sample instead of kept as sample objects:
 *
 * <pre>
 * word 0  ts seconds            word 3  ts nanos (30 bits) | type (3) | object flag (1) | source nanos (30)
 * word 1  source ts seconds     word 4  server ts nanos (high 32 bits) | quality code (low 32)
 * word 2  server ts seconds     word 5  the value's raw bits: boolean, integer or floating point
 * </pre>
 *
 * A value that has no raw bits (a string, a timestamp, a value not carried by its type's Java
 * class) is kept in a parallel object array made on first need, and the object flag says so. A
 * full tail of numeric tags therefore holds no per-sample objects (the garbage collector has
 * nothing to copy or trace for it) and one sample's words share a cache line or two. {@link #copy}
 * rebuilds samples equal to those added. The array starts small and doubles up to the capacity.
 *
 * <p>Not thread-safe: {@link LiveTail} guards each ring with its own lock.
 */
final class SampleRing {

    static final int STRIDE = 6;
    private static final DataType[] TYPES = DataType.values();
    private static final int FIRST_CAPACITY = 64;
    private static final long NANOS_MASK = (1L << 30) - 1;
    private static final long OBJECT_FLAG = 1L << 30;

    private final TagPath tag;
    private final int capacity;
    private long[] words = new long[0];
    private Object[] objects;
    private int head;
    private int size;

    SampleRing(TagPath tag, int capacity) {
        this.tag = tag;
        this.capacity = capacity;
    }

    void add(HistorySample sample) {
        int slots = words.length / STRIDE;
        if (size == slots && size < capacity) {
            grow();
            slots = words.length / STRIDE;
        }
        int slot;
        if (size == slots) {
            slot = head; // full: overwrite the oldest
            head = head + 1 == slots ? 0 : head + 1;
        } else {
            slot = head + size; // below the capacity nothing wraps: head is 0
            size++;
        }
        Object value = sample.value();
        boolean object = !hasBits(sample.type(), value);
        int at = slot * STRIDE;
        words[at] = sample.ts().getEpochSecond();
        words[at + 1] = sample.sourceTs().getEpochSecond();
        words[at + 2] = sample.serverTs().getEpochSecond();
        words[at + 3] = ((long) sample.ts().getNano() << 34) | ((long) sample.type().ordinal() << 31)
                | (object ? OBJECT_FLAG : 0) | sample.sourceTs().getNano();
        words[at + 4] = ((long) sample.serverTs().getNano() << 32) | (sample.quality().code() & 0xFFFFFFFFL);
        words[at + 5] = object ? 0 : rawBits(value);
        if (object && objects == null && value != null) {
            objects = new Object[words.length / STRIDE];
        }
        if (objects != null) {
            objects[slot] = object ? value : null;
        }
    }

    /** Adds the samples with {@code from <= ts < to} to {@code out}, oldest first. */
    void copy(Instant from, Instant to, List<HistorySample> out) {
        int slots = words.length / STRIDE;
        for (int i = 0; i < size; i++) {
            int slot = (head + i) % slots;
            long seconds = words[slot * STRIDE];
            int nanos = (int) (words[slot * STRIDE + 3] >>> 34);
            if (compare(seconds, nanos, from) >= 0 && compare(seconds, nanos, to) < 0) {
                out.add(sample(slot));
            }
        }
    }

    int size() {
        return size;
    }

    /** Whether the value is carried by its type's Java class and so fits in raw bits. */
    private static boolean hasBits(DataType type, Object value) {
        return switch (type) {
            case FLOAT64 -> value instanceof Double;
            case INT64 -> value instanceof Long;
            case INT32 -> value instanceof Integer;
            case FLOAT32 -> value instanceof Float;
            case BOOLEAN -> value instanceof Boolean;
            case STRING, DATETIME -> false;
        };
    }

    /** The raw bits of a value {@link #hasBits} accepted. */
    private static long rawBits(Object value) {
        if (value instanceof Double d) {
            return Double.doubleToRawLongBits(d);
        } else if (value instanceof Float f) {
            return Float.floatToRawIntBits(f);
        } else if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return ((Number) value).longValue();
    }

    private HistorySample sample(int slot) {
        int at = slot * STRIDE;
        long packed = words[at + 3];
        long server = words[at + 4];
        DataType type = TYPES[(int) ((packed >>> 31) & 0x7)];
        long raw = words[at + 5];
        Object value;
        if ((packed & OBJECT_FLAG) != 0) {
            value = objects == null ? null : objects[slot];
        } else {
            value = switch (type) {
                case FLOAT64 -> Double.longBitsToDouble(raw);
                case INT64 -> raw;
                case INT32 -> (int) raw;
                case FLOAT32 -> Float.intBitsToFloat((int) raw);
                case BOOLEAN -> raw != 0;
                case STRING, DATETIME -> throw new IllegalStateException("no raw bits for " + type);
            };
        }
        return new HistorySample(tag, type, value, new Quality((int) server),
                Instant.ofEpochSecond(words[at], packed >>> 34),
                Instant.ofEpochSecond(words[at + 1], packed & NANOS_MASK),
                Instant.ofEpochSecond(words[at + 2], server >>> 32));
    }

    private static int compare(long second, int nano, Instant instant) {
        int bySecond = Long.compare(second, instant.getEpochSecond());
        return bySecond != 0 ? bySecond : Integer.compare(nano, instant.getNano());
    }

    /**
     * Doubles the arrays, up to the capacity. Below the capacity nothing is overwritten, so the
     * oldest sample is still at 0 and a plain copy keeps the order.
     */
    private void grow() {
        int slots = Math.min(capacity, Math.max(FIRST_CAPACITY, 2 * words.length / STRIDE));
        words = Arrays.copyOf(words, slots * STRIDE);
        if (objects != null) {
            objects = Arrays.copyOf(objects, slots);
        }
    }
}

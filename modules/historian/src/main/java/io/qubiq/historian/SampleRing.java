package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The most recent samples of one tag, oldest first, at most {@code capacity}, in parallel arrays
 * of primitives rather than as sample objects: three timestamps as seconds and nanos, the quality
 * code, the data type, and the value as raw bits (booleans, integers, floating point). Strings,
 * timestamps as values and any value not carried by its type's Java class are kept as objects.
 * So a full tail holds no per-sample objects for numeric tags: the garbage collector has nothing
 * to copy or trace for it, however many samples flow through. {@link #copy} rebuilds samples equal
 * to those added. The arrays start small and double up to the capacity.
 *
 * <p>Not thread-safe: {@link LiveTail} guards each ring with its own lock.
 */
final class SampleRing {

    private static final DataType[] TYPES = DataType.values();
    private static final int FIRST_CAPACITY = 16;
    /** Kind: the value is in {@link #objects} (or absent, when that slot is null). */
    private static final byte OBJECT = -1;

    private final TagPath tag;
    private final int capacity;
    private long[] seconds = new long[0];
    private int[] nanos = new int[0];
    private long[] sourceSeconds = new long[0];
    private int[] sourceNanos = new int[0];
    private long[] serverSeconds = new long[0];
    private int[] serverNanos = new int[0];
    private int[] qualities = new int[0];
    private byte[] types = new byte[0];
    /** How the value is kept: {@link #OBJECT}, or the {@link DataType} ordinal whose raw bits {@link #bits} hold. */
    private byte[] kinds = new byte[0];
    private long[] bits = new long[0];
    private Object[] objects;
    private int head;
    private int size;

    SampleRing(TagPath tag, int capacity) {
        this.tag = tag;
        this.capacity = capacity;
    }

    void add(HistorySample sample) {
        if (size == seconds.length && size < capacity) {
            grow();
        }
        int slot;
        if (size == seconds.length) {
            slot = head; // full: overwrite the oldest
            head = (head + 1) % seconds.length;
        } else {
            slot = (head + size) % seconds.length;
            size++;
        }
        seconds[slot] = sample.ts().getEpochSecond();
        nanos[slot] = sample.ts().getNano();
        sourceSeconds[slot] = sample.sourceTs().getEpochSecond();
        sourceNanos[slot] = sample.sourceTs().getNano();
        serverSeconds[slot] = sample.serverTs().getEpochSecond();
        serverNanos[slot] = sample.serverTs().getNano();
        qualities[slot] = sample.quality().code();
        types[slot] = (byte) sample.type().ordinal();
        putValue(slot, sample.type(), sample.value());
    }

    /** Adds the samples with {@code from <= ts < to} to {@code out}, oldest first. */
    void copy(Instant from, Instant to, List<HistorySample> out) {
        for (int i = 0; i < size; i++) {
            int slot = (head + i) % seconds.length;
            if (compare(seconds[slot], nanos[slot], from) >= 0 && compare(seconds[slot], nanos[slot], to) < 0) {
                out.add(sample(slot));
            }
        }
    }

    int size() {
        return size;
    }

    private void putValue(int slot, DataType type, Object value) {
        long raw;
        if (type == DataType.FLOAT64 && value instanceof Double d) {
            raw = Double.doubleToRawLongBits(d);
        } else if (type == DataType.INT64 && value instanceof Long l) {
            raw = l;
        } else if (type == DataType.INT32 && value instanceof Integer i) {
            raw = i;
        } else if (type == DataType.FLOAT32 && value instanceof Float f) {
            raw = Float.floatToRawIntBits(f);
        } else if (type == DataType.BOOLEAN && value instanceof Boolean b) {
            raw = b ? 1 : 0;
        } else {
            kinds[slot] = OBJECT;
            if (objects == null && value != null) {
                objects = new Object[seconds.length];
            }
            if (objects != null) {
                objects[slot] = value;
            }
            return;
        }
        kinds[slot] = (byte) type.ordinal();
        bits[slot] = raw;
        if (objects != null) {
            objects[slot] = null;
        }
    }

    private HistorySample sample(int slot) {
        Object value = switch (kinds[slot]) {
            case OBJECT -> objects == null ? null : objects[slot];
            default -> switch (TYPES[kinds[slot]]) {
                case FLOAT64 -> Double.longBitsToDouble(bits[slot]);
                case INT64 -> bits[slot];
                case INT32 -> (int) bits[slot];
                case FLOAT32 -> Float.intBitsToFloat((int) bits[slot]);
                case BOOLEAN -> bits[slot] != 0;
                default -> throw new IllegalStateException("no raw bits for " + TYPES[kinds[slot]]);
            };
        };
        return new HistorySample(tag, TYPES[types[slot]], value, new Quality(qualities[slot]),
                Instant.ofEpochSecond(seconds[slot], nanos[slot]),
                Instant.ofEpochSecond(sourceSeconds[slot], sourceNanos[slot]),
                Instant.ofEpochSecond(serverSeconds[slot], serverNanos[slot]));
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
        int length = Math.min(capacity, Math.max(FIRST_CAPACITY, seconds.length * 2));
        seconds = Arrays.copyOf(seconds, length);
        nanos = Arrays.copyOf(nanos, length);
        sourceSeconds = Arrays.copyOf(sourceSeconds, length);
        sourceNanos = Arrays.copyOf(sourceNanos, length);
        serverSeconds = Arrays.copyOf(serverSeconds, length);
        serverNanos = Arrays.copyOf(serverNanos, length);
        qualities = Arrays.copyOf(qualities, length);
        types = Arrays.copyOf(types, length);
        kinds = Arrays.copyOf(kinds, length);
        bits = Arrays.copyOf(bits, length);
        if (objects != null) {
            objects = Arrays.copyOf(objects, length);
        }
    }
}

package io.qubiq.storeforward;

import io.qubiq.buffer.BufferException;
import io.qubiq.buffer.BufferedRecord;
import io.qubiq.buffer.DurableBuffer;
import java.util.List;

/**
 * Drops a buffer's oldest records until what it holds fits a byte limit: the operator's "drop the
 * oldest now" when a smaller {@code max_bytes} is applied below the backlog. Records are counted as the
 * buffer counts them against its limit ({@link DurableBuffer#recordBytes}); they are dropped by
 * acknowledging them, so the buffer's own guarantees hold (the watermark is durable before a freed
 * segment is deleted; a crash in between replays them, it never loses a newer record).
 *
 * <p>Threading: the caller owns the buffer's reader (the forwarder is stopped) and holds producers off.
 */
final class OldestTrim {

    private static final int PEEK_RECORDS = 1_000;

    /** What was dropped: how many records, their payload bytes and their sequence range (0..0 for none). */
    record Dropped(long items, long bytes, long firstSequence, long lastSequence) {
    }

    private OldestTrim() {
    }

    static Dropped to(DurableBuffer buffer, long maxBytes) throws BufferException {
        long used = buffer.stats().usedBytes();
        long items = 0;
        long bytes = 0;
        long first = 0;
        long last = 0;
        while (used > maxBytes) {
            List<BufferedRecord> head = buffer.reader().peek(PEEK_RECORDS, Long.MAX_VALUE);
            if (head.isEmpty()) {
                break;
            }
            long through = 0;
            for (BufferedRecord record : head) {
                if (used <= maxBytes) {
                    break;
                }
                used -= DurableBuffer.recordBytes(record.payload().length);
                bytes += record.payload().length;
                items++;
                first = first == 0 ? record.sequence() : first;
                through = record.sequence();
            }
            buffer.reader().acknowledge(through);
            last = through;
            used = Math.min(used, buffer.stats().usedBytes());
        }
        return new Dropped(items, bytes, first, last);
    }
}

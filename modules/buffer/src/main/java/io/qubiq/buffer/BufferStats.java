package io.qubiq.buffer;

import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of one buffer, for metrics and alarms.
 *
 * @param usedBytes bytes of unconsumed records, counted as {@link RecordFormat#frameBytes(int)}
 * @param maxBytes the configured limit
 * @param records number of unconsumed records
 * @param oldestAppendTime append time of the head record; empty when the buffer is empty
 * @param headSequence sequence of the oldest unconsumed record; {@code tailSequence + 1} when empty
 * @param tailSequence sequence of the newest record ever appended; 0 before the first
 * @param droppedRecords records dropped by {@link OverflowPolicy#DROP_OLDEST} since open
 * @param discardedRecords records skipped since open because their bytes failed a checksum on read
 * @param syncs successful fsync rounds since open
 * @param syncFailures failed fsync rounds since open (each one also fails the waiting appends or
 *     the {@link DurableBuffer#sync()} call; periodic failures are only counted here)
 */
public record BufferStats(
    long usedBytes,
    long maxBytes,
    long records,
    Optional<Instant> oldestAppendTime,
    long headSequence,
    long tailSequence,
    long droppedRecords,
    long discardedRecords,
    long syncs,
    long syncFailures) {}

/**
 * A durable, crash-safe buffer of opaque records: the storage under every store-and-forward channel.
 *
 * <p>The library knows bytes, not tags, and depends on the JDK only. Producers {@linkplain
 * io.qubiq.buffer.DurableBuffer#append(byte[]) append} records and get back sequence numbers that
 * grow monotonically and are never reused, not even across restarts or dropped records
 * ({@link io.qubiq.buffer.DurableBuffer#appendAsync(byte[]) appendAsync} lets a producer keep many
 * appends in flight while they share an fsync). One forwarder {@linkplain
 * io.qubiq.buffer.BufferReader#peek(int, long) peeks} a batch from the head, delivers it, and then
 * {@linkplain io.qubiq.buffer.BufferReader#acknowledge(long) acknowledges} it; a crash anywhere
 * replays what was not acknowledged (at least once, never lost).
 *
 * <p>Two implementations share one contract: {@link io.qubiq.buffer.SegmentedDiskBuffer}
 * (segment files, CRC32C per record, recovery on open, directory lock, three fsync modes; its
 * class doc and {@code docs/formats/buffer.md} give the byte layout) and {@link
 * io.qubiq.buffer.MemoryBuffer} (same semantics, lost with the process).
 *
 * <p>Failures are typed by what the caller does next: {@link io.qubiq.buffer.BufferFullException}
 * (the buffer refuses: keep the item upstream or fail visibly), {@link
 * io.qubiq.buffer.BufferIOException} (the storage failed: the record may or may not be stored),
 * {@link io.qubiq.buffer.BufferLockedException} (another owner holds the directory: stop), {@link
 * io.qubiq.buffer.BufferCorruptException} (data that cannot be trusted: names the file, the offset
 * and the operator's next step). Corruption found on open never throws: it is moved aside into
 * {@code corrupt/} and described in the {@link io.qubiq.buffer.RecoveryReport}.
 */
package io.qubiq.buffer;

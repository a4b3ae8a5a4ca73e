package io.qubiq.buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The byte layout of one record frame inside a segment, little-endian, 8-byte aligned.
 *
 * <pre>
 * offset size field
 *      0    4 payload length, 1..2^31-1; 0 means "no record here" (the commit word, written last)
 *      4    4 CRC32C of bytes 8..24+length, then of the 4 length bytes
 *      8    8 sequence number
 *     16    8 append time, epoch milliseconds
 *     24    n payload
 *   24+n  pad zero bytes up to the next multiple of 8
 * </pre>
 *
 * <p><b>Commit.</b> A record is committed when its length word is non-zero and its checksum, its
 * sequence (the expected next one) and its bounds all check out. The writer stores sequence,
 * time and payload first, then the checksum, then the length: an append interrupted by {@code kill
 * -9} leaves a zero length (nothing), and one torn by power loss leaves bytes whose checksum fails.
 * Segment files are zero-filled before use, so the first zero length word is the end of data.
 *
 * <p><b>Threading.</b> Stateless; the caller supplies its own {@link CRC32C}.
 */
final class RecordFormat {
  static final int HEADER_BYTES = 24;
  static final int ALIGNMENT = 8;
  static final int LENGTH_OFFSET = 0;
  static final int CRC_OFFSET = 4;
  static final int SEQUENCE_OFFSET = 8;
  static final int TIME_OFFSET = 16;
  static final int PAYLOAD_OFFSET = 24;

  private RecordFormat() {}

  /** Bytes one record with a payload of {@code payloadBytes} occupies, header and padding included. */
  public static int frameBytes(int payloadBytes) {
    return (HEADER_BYTES + payloadBytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /**
   * Writes one frame at {@code offset} of {@code segment} (little-endian) in commit order.
   *
   * @param scratch a 16-byte little-endian heap buffer owned by the caller
   */
  static void write(
      ByteBuffer segment,
      int offset,
      long sequence,
      long appendTimeMillis,
      byte[] payload,
      ByteBuffer scratch,
      CRC32C crc) {
    int length = payload.length;
    scratch.putLong(0, sequence).putLong(8, appendTimeMillis);
    crc.reset();
    crc.update(scratch.array(), 0, 16);
    crc.update(payload, 0, length);
    foldLength(crc, length);
    segment.putLong(offset + SEQUENCE_OFFSET, sequence);
    segment.putLong(offset + TIME_OFFSET, appendTimeMillis);
    segment.put(offset + PAYLOAD_OFFSET, payload, 0, length);
    segment.putInt(offset + CRC_OFFSET, (int) crc.getValue());
    segment.putInt(offset + LENGTH_OFFSET, length);
  }

  /**
   * Checks the frame at {@code offset}: its length fits before {@code limit}, its sequence is
   * {@code expectedSequence} and its checksum matches. {@code view} is a scratch duplicate of the
   * segment whose position and limit this method moves.
   */
  static boolean isValid(
      ByteBuffer view, int offset, int limit, long expectedSequence, CRC32C crc) {
    if (offset + HEADER_BYTES > limit) {
      return false;
    }
    int length = view.getInt(offset + LENGTH_OFFSET);
    if (length <= 0 || length > limit - offset - HEADER_BYTES) {
      return false;
    }
    if (view.getLong(offset + SEQUENCE_OFFSET) != expectedSequence) {
      return false;
    }
    crc.reset();
    view.limit(offset + PAYLOAD_OFFSET + length).position(offset + SEQUENCE_OFFSET);
    crc.update(view);
    view.limit(view.capacity()).position(0);
    foldLength(crc, length);
    return (int) crc.getValue() == view.getInt(offset + CRC_OFFSET);
  }

  static int length(ByteBuffer segment, int offset) {
    return segment.getInt(offset + LENGTH_OFFSET);
  }

  static long sequence(ByteBuffer segment, int offset) {
    return segment.getLong(offset + SEQUENCE_OFFSET);
  }

  static long appendTime(ByteBuffer segment, int offset) {
    return segment.getLong(offset + TIME_OFFSET);
  }

  /** A fresh little-endian 16-byte scratch buffer for {@link #write}. */
  static ByteBuffer newScratch() {
    return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void foldLength(CRC32C crc, int length) {
    crc.update(length);
    crc.update(length >>> 8);
    crc.update(length >>> 16);
    crc.update(length >>> 24);
  }
}

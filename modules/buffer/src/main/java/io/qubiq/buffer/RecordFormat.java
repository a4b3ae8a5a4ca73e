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
 * <p><b>Hole.</b> Where a read or a recovery finds a damaged record and a valid one after it, the
 * damaged bytes are overwritten at their start by a 24-byte hole frame, so every later walk steps
 * over them without re-reading the damage (and the loss is reported once):
 *
 * <pre>
 *      0    4 minus the span in bytes (a negative length; span = 24..2^31-8, a multiple of 8)
 *      4    4 CRC32C of bytes 8..24, then of the 4 length bytes
 *      8    8 first sequence lost in the span
 *     16    8 sequence of the record that follows the span
 * </pre>
 *
 * A hole that fails its checksum is damage like any other. Readers before holes existed treat one
 * as a damaged record (their behaviour for the damage it covers).
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

  /**
   * True when a valid hole frame starts at {@code offset} and its span ends at or before {@code
   * limit}.
   */
  static boolean isHole(ByteBuffer view, int offset, int limit, CRC32C crc) {
    if (offset + HEADER_BYTES > limit) {
      return false;
    }
    int length = view.getInt(offset + LENGTH_OFFSET);
    if (length >= 0 || length == Integer.MIN_VALUE) {
      return false;
    }
    int span = -length;
    if (span < HEADER_BYTES || span % ALIGNMENT != 0 || span > limit - offset) {
      return false;
    }
    crc.reset();
    view.limit(offset + HEADER_BYTES).position(offset + SEQUENCE_OFFSET);
    crc.update(view);
    view.limit(view.capacity()).position(0);
    foldLength(crc, length);
    return (int) crc.getValue() == view.getInt(offset + CRC_OFFSET);
  }

  /** Bytes a valid hole at {@code offset} covers, its own 24 included. */
  static int holeSpan(ByteBuffer view, int offset) {
    return -view.getInt(offset + LENGTH_OFFSET);
  }

  /** The first sequence a valid hole at {@code offset} stands for. */
  static long holeFirst(ByteBuffer view, int offset) {
    return view.getLong(offset + SEQUENCE_OFFSET);
  }

  /** The sequence of the record after a valid hole at {@code offset}. */
  static long holeNext(ByteBuffer view, int offset) {
    return view.getLong(offset + TIME_OFFSET);
  }

  /** The 24 bytes of a hole covering {@code span} bytes, sequences {@code first..next-1}. */
  static ByteBuffer hole(int span, long first, long next) {
    if (span < HEADER_BYTES || span % ALIGNMENT != 0 || next <= first) {
      throw new IllegalArgumentException("bad hole: span " + span + ", " + first + ".." + next);
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(SEQUENCE_OFFSET, first).putLong(TIME_OFFSET, next);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), SEQUENCE_OFFSET, 16);
    foldLength(crc, -span);
    b.putInt(CRC_OFFSET, (int) crc.getValue()).putInt(LENGTH_OFFSET, -span);
    return b;
  }

  /**
   * The first offset after {@code from} (8-aligned, before {@code limit}) holding a valid record
   * whose sequence is above {@code after}: where reading resumes after damage. -1 when none.
   */
  static int resync(ByteBuffer view, int from, int limit, long after, long maxSequence, CRC32C crc) {
    for (int at = from + ALIGNMENT; at + HEADER_BYTES < limit; at += ALIGNMENT) {
      int length = view.getInt(at + LENGTH_OFFSET);
      if (length <= 0 || length > limit - at - HEADER_BYTES) {
        continue;
      }
      long sequence = view.getLong(at + SEQUENCE_OFFSET);
      if (sequence <= after || sequence > maxSequence) {
        continue;
      }
      if (isValid(view, at, limit, sequence, crc)) {
        return at;
      }
    }
    return -1;
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

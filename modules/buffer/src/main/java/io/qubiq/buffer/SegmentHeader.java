package io.qubiq.buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The first 128 bytes of a segment file, little-endian: an identity block written once when the
 * segment is created, and a seal block written when it stops taking appends.
 *
 * <pre>
 * identity (written at creation, never changed)
 *   0  4 magic 0x46554251 ("QBUF" in file order)
 *   4  4 format version, 1
 *   8  4 segment size in bytes (the file's intended length)
 *  12  4 reserved, 0
 *  16  8 base sequence: the first record's sequence, also the file name
 *  24  8 previous link: the last sequence of the segment before this one in the chain (0: none)
 *  32  8 creation time, epoch milliseconds
 *  40 20 reserved, 0
 *  60  4 CRC32C of bytes 0..60
 * seal (written when the segment is sealed; all zero before)
 *  64  8 last sequence in the segment (base - 1 when empty)
 *  72  4 end of data: offset just past the last record
 *  76  4 flags: bit 0 = the records were fsynced before this seal was written
 *  80  8 chain link: the sequence the next segment's previous link must equal (the last
 *       sequence, or the one before base when empty; kept when a damaged tail is cut off)
 *  88  4 CRC32C of bytes 16..24 and 64..88
 *  92 36 reserved, 0
 * 128    first record
 * </pre>
 *
 * <p>The seal lets a reopen skip scanning a segment. It is trusted when the previous owner shut
 * down cleanly, or when its synced flag says the records it describes were on stable storage
 * before it was written; otherwise the segment is scanned. A torn header or seal fails its CRC.
 */
record SegmentHeader(int version, int segmentBytes, long baseSequence, long previousLast,
    long createdMillis, Optional<Seal> seal) {

  static final int BYTES = 128;
  static final int IDENTITY_BYTES = 64;
  static final int SEAL_OFFSET = 64;
  static final int SEAL_BYTES = 32;
  static final int MAGIC = 0x46554251;
  static final int FORMAT_VERSION = 1;

  /**
   * A segment's final extent.
   *
   * @param lastSequence last record's sequence, {@code base - 1} when the segment holds none
   * @param dataEnd offset just past the last record
   * @param synced the records were fsynced before the seal was written
   * @param chainLink what the next segment's previous link must equal
   */
  record Seal(long lastSequence, int dataEnd, boolean synced, long chainLink) {}

  /** The 64-byte identity block of a new segment. */
  static ByteBuffer encodeIdentity(int segmentBytes, long base, long previousLast, long now) {
    ByteBuffer b = ByteBuffer.allocate(IDENTITY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, MAGIC).putInt(4, FORMAT_VERSION).putInt(8, segmentBytes);
    b.putLong(16, base).putLong(24, previousLast).putLong(32, now);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, 60);
    b.putInt(60, (int) crc.getValue());
    return b;
  }

  /** The 32-byte seal block, to be written at {@link #SEAL_OFFSET}. */
  static ByteBuffer encodeSeal(long base, Seal seal) {
    ByteBuffer b = ByteBuffer.allocate(SEAL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, seal.lastSequence()).putInt(8, seal.dataEnd()).putInt(12, seal.synced() ? 1 : 0);
    b.putLong(16, seal.chainLink());
    b.putInt(24, sealCrc(base, b.array()));
    return b;
  }

  /**
   * The version of a header that is intact but newer than {@link #FORMAT_VERSION}: magic, version
   * and the identity CRC at bytes 60..64 keep their places in every version, so a newer gateway's
   * segment is told apart from a damaged one. Empty for a current, older or damaged header.
   */
  static Optional<Integer> newerVersion(ByteBuffer identity) {
    ByteBuffer h = identity.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (h.remaining() < IDENTITY_BYTES) {
      return Optional.empty();
    }
    byte[] bytes = new byte[IDENTITY_BYTES];
    h.get(h.position(), bytes);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 60);
    boolean intact = b.getInt(0) == MAGIC && (int) crc.getValue() == b.getInt(60);
    return intact && b.getInt(4) > FORMAT_VERSION ? Optional.of(b.getInt(4)) : Optional.empty();
  }

  /** Decodes a 128-byte header; empty when the identity block is not a valid version-1 header. */
  static Optional<SegmentHeader> decode(ByteBuffer raw) {
    ByteBuffer b = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() < BYTES) {
      return Optional.empty();
    }
    byte[] bytes = new byte[BYTES];
    b.get(b.position(), bytes);
    ByteBuffer h = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 60);
    if (h.getInt(0) != MAGIC
        || h.getInt(4) != FORMAT_VERSION
        || (int) crc.getValue() != h.getInt(60)) {
      return Optional.empty();
    }
    long base = h.getLong(16);
    Optional<Seal> seal = Optional.empty();
    byte[] sealBytes = new byte[SEAL_BYTES];
    h.get(SEAL_OFFSET, sealBytes);
    ByteBuffer s = ByteBuffer.wrap(sealBytes).order(ByteOrder.LITTLE_ENDIAN);
    if (sealCrc(base, sealBytes) == s.getInt(24) && s.getInt(8) >= BYTES) {
      seal = Optional.of(new Seal(s.getLong(0), s.getInt(8), (s.getInt(12) & 1) != 0,
          s.getLong(16)));
    }
    return Optional.of(new SegmentHeader(h.getInt(4), h.getInt(8), base, h.getLong(24),
        h.getLong(32), seal));
  }

  private static int sealCrc(long base, byte[] sealBlock) {
    CRC32C crc = new CRC32C();
    ByteBuffer baseBytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, base);
    crc.update(baseBytes.array(), 0, 8);
    crc.update(sealBlock, 0, 24);
    return (int) crc.getValue();
  }
}

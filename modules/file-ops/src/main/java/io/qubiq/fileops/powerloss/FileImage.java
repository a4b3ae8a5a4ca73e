package io.qubiq.fileops.powerloss;

import java.util.Arrays;

/** The bytes of one file, grown and cut as operations are applied. Not thread-safe. */
final class FileImage {
  private byte[] data = new byte[0];
  private int size;

  int size() {
    return size;
  }

  byte[] bytes() {
    return Arrays.copyOf(data, size);
  }

  /** The byte at {@code index}, zero past the end. */
  byte at(int index) {
    return index < size ? data[index] : 0;
  }

  void write(long position, byte[] bytes, int length) {
    int end = Math.toIntExact(position + length);
    if (end > data.length) {
      data = Arrays.copyOf(data, Math.max(end, data.length * 2));
    }
    System.arraycopy(bytes, 0, data, (int) position, length);
    size = Math.max(size, end);
  }

  void truncate(long newSize) {
    if (newSize < size) {
      Arrays.fill(data, (int) newSize, size, (byte) 0);
      size = (int) newSize;
    }
  }
}

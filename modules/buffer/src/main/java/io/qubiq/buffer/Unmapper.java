package io.qubiq.buffer;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.MappedByteBuffer;

/**
 * Releases a memory mapping now instead of at the next garbage collection, so a deleted segment's
 * disk space comes back at once. Uses {@code sun.misc.Unsafe.invokeCleaner} (module
 * jdk.unsupported, part of every JDK); without it mappings are left to the collector.
 *
 * <p><b>Threading.</b> The caller guarantees no thread touches the buffer again: an access after
 * unmapping crashes the JVM. Segments call this only under their own lock once released.
 */
final class Unmapper {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method invoke = null;
    try {
      Class<?> type = Class.forName("sun.misc.Unsafe");
      Field field = type.getDeclaredField("theUnsafe");
      field.setAccessible(true);
      unsafe = field.get(null);
      invoke = type.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      unsafe = null;
      invoke = null;
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = invoke;
  }

  private Unmapper() {}

  static void unmap(MappedByteBuffer buffer) {
    if (buffer == null || INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, buffer);
    } catch (ReflectiveOperationException e) {
      // Left to the garbage collector.
    }
  }
}

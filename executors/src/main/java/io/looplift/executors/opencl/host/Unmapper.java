package io.looplift.executors.opencl.host;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Unmaps a mapped buffer at once instead of when the garbage collector finds it, so that the shared memory
 * of a freed segment goes back to the system now. Uses {@code sun.misc.Unsafe.invokeCleaner}; where that is
 * not available the collector does it later.
 */
final class Unmapper {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method invokeCleaner = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      invokeCleaner = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Left to the garbage collector.
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = invokeCleaner;
  }

  private Unmapper() {}

  /**
   * Unmaps {@code mapped}, a buffer returned by {@code FileChannel.map} (not a slice of one). Nothing may
   * touch it, or any slice of it, afterwards. Never throws.
   */
  static void unmap(ByteBuffer mapped) {
    if (INVOKE_CLEANER == null) return;
    try {
      INVOKE_CLEANER.invoke(UNSAFE, mapped);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Left to the garbage collector.
    }
  }
}

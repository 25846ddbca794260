package io.looplift.executors.opencl;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;

/**
 * Copies between the program's primitive arrays and staged {@link Staging.Block}s, element by element in
 * native byte order. A {@code boolean[]} travels as bytes 0 and 1, and a byte read back as a boolean keeps
 * only its low bit, as a Java {@code bastore} to a boolean array does. Large copies are split between
 * threads ({@link ParallelCopy}).
 */
final class StagedArrays {
  private StagedArrays() {}

  /** Bytes per element of {@code array} as staged. */
  static int elementSize(Object array) {
    if (array instanceof boolean[] || array instanceof byte[]) return 1;
    if (array instanceof char[] || array instanceof short[]) return 2;
    if (array instanceof int[] || array instanceof float[]) return 4;
    if (array instanceof long[] || array instanceof double[]) return 8;
    throw new IllegalArgumentException("not a primitive array: " + array.getClass());
  }

  /** The bytes of the block holding all of {@code array}: OpenCL has no empty buffers, so at least one element. */
  static long blockBytes(Object array) {
    return (long) Math.max(1, Array.getLength(array)) * elementSize(array);
  }

  /** Copies all of {@code array} into {@code block} from element {@code at} of the block on. */
  static void upload(Object array, Staging.Block block, long at) {
    copy(array, block, at, 0, Array.getLength(array), true);
  }

  /**
   * Copies elements {@code [from, to)} of {@code array} back from {@code block}, where element 0 of the
   * array is element {@code at} of the block.
   */
  static void download(Staging.Block block, long at, Object array, int from, int to) {
    copy(array, block, at, from, to, false);
  }

  private static void copy(Object array, Staging.Block block, long at, int from, int to, boolean toBlock) {
    int size = elementSize(array);
    long first = 0; // the block element the current view starts with
    for (ByteBuffer view : block.views()) {
      long end = first + view.capacity() / size;
      long lo = Math.max(first, at + from);
      long hi = Math.min(end, at + to);
      if (lo < hi) {
        int viewAt = (int) (lo - first);
        int arrayAt = (int) (lo - at);
        ParallelCopy.run((int) (hi - lo), size, (f, t) -> {
          if (toBlock) put(array, view, viewAt + f, arrayAt + f, t - f);
          else get(view, viewAt + f, array, arrayAt + f, t - f);
        });
      }
      first = end;
    }
  }

  private static void put(Object array, ByteBuffer view, int at, int from, int n) {
    if (array instanceof boolean[] b) {
      for (int j = 0; j < n; j++) view.put(at + j, (byte) (b[from + j] ? 1 : 0));
    } else if (array instanceof byte[] b) {
      view.put(at, b, from, n);
    } else if (array instanceof char[] c) {
      view.asCharBuffer().put(at, c, from, n);
    } else if (array instanceof short[] s) {
      view.asShortBuffer().put(at, s, from, n);
    } else if (array instanceof int[] i) {
      view.asIntBuffer().put(at, i, from, n);
    } else if (array instanceof long[] l) {
      view.asLongBuffer().put(at, l, from, n);
    } else if (array instanceof float[] f) {
      view.asFloatBuffer().put(at, f, from, n);
    } else {
      view.asDoubleBuffer().put(at, (double[]) array, from, n);
    }
  }

  private static void get(ByteBuffer view, int at, Object array, int from, int n) {
    if (array instanceof boolean[] b) {
      for (int j = 0; j < n; j++) b[from + j] = (view.get(at + j) & 1) != 0;
    } else if (array instanceof byte[] b) {
      view.get(at, b, from, n);
    } else if (array instanceof char[] c) {
      view.asCharBuffer().get(at, c, from, n);
    } else if (array instanceof short[] s) {
      view.asShortBuffer().get(at, s, from, n);
    } else if (array instanceof int[] i) {
      view.asIntBuffer().get(at, i, from, n);
    } else if (array instanceof long[] l) {
      view.asLongBuffer().get(at, l, from, n);
    } else if (array instanceof float[] f) {
      view.asFloatBuffer().get(at, f, from, n);
    } else {
      view.asDoubleBuffer().get(at, (double[]) array, from, n);
    }
  }
}

package io.looplift.runtime;

import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import java.lang.reflect.Array;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Copies of the arrays a launch reads or writes and of its accumulators, taken before an executor runs it,
 * for the reference executor to run the same work on. Taken before, because a launch may write an array it
 * also reads.
 *
 * <p>An array that several argument slots share (in place, or a row that is also an argument of its own)
 * has one copy that all of them share, so the reference sees the same aliasing as the executor. The rows of
 * an array of arrays are copied too. Not thread-safe: one verified launch owns it.
 */
final class LaunchCopy {
  private final Object[] arrays;
  private final long[] accumulators;

  private LaunchCopy(Object[] arrays, long[] accumulators) {
    this.arrays = arrays;
    this.accumulators = accumulators;
  }

  /** Copies what {@code launch} reads and writes; slots it does neither with keep the original. */
  static LaunchCopy of(Launch launch) {
    LoopTemplate t = launch.template();
    boolean[] read = t.readArrays();
    boolean[] written = t.writtenArrays();
    Map<Object, Object> copies = new IdentityHashMap<>();
    Object[] arrays = launch.arrays().clone();
    for (int a = 0; a < arrays.length; a++) {
      if (read[a] || written[a]) arrays[a] = copy(arrays[a], copies);
    }
    return new LaunchCopy(arrays, launch.accumulators().clone());
  }

  /** A copy of {@code array} (rows included), the same copy each time the same array is met. */
  private static Object copy(Object array, Map<Object, Object> copies) {
    if (array == null) return null;
    Object done = copies.get(array);
    if (done != null) return done;
    int length = Array.getLength(array);
    Object copy = Array.newInstance(array.getClass().getComponentType(), length);
    System.arraycopy(array, 0, copy, 0, length);
    copies.put(array, copy);
    if (copy instanceof Object[] rows) {
      for (int r = 0; r < length; r++) rows[r] = copy(rows[r], copies);
    }
    return copy;
  }

  /** The copied arguments, slot for slot; the reference executor's results once it ran on them. */
  Object[] arrays() {
    return arrays;
  }

  /** The accumulators' values before the launch. */
  long[] accumulators() {
    return accumulators;
  }
}

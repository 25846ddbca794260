package io.looplift.runtime;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * A site whose selection has settled on its original bytecode, and the launch shape it did so for: while
 * launches keep that shape, the dispatcher declines them at once instead of building a launch and asking the
 * selection again. That request costs some hundred microseconds while the pipeline's code is still
 * interpreted, which a program whose loop runs a few times (or whose loop nest the selection keeps as
 * bytecode) would pay on every run. Every {@link #RECHECK}th launch asks the selection again all the same, so
 * that what it learns later (devices that join, a re-measurement) still counts. Thread-safe.
 */
final class SettledBytecode {
  /** How many launches of the same shape are declined at once before the selection is asked again. */
  static final int RECHECK = 64;

  private final long trips;
  /** For a nest, whose work per iteration depends on them: the parameters and the arrays' lengths. */
  private final long[] params;
  private final int[] lengths;
  /** What the report says of each declined launch. */
  final String reason;
  private int uses; // races only make the recheck come a little early or late

  private SettledBytecode(long trips, long[] params, int[] lengths, String reason) {
    this.trips = trips;
    this.params = params;
    this.lengths = lengths;
    this.reason = reason;
  }

  /** The shape of a launch of {@code trips} iterations; a nest's also of its parameters and arrays. */
  static SettledBytecode of(boolean nest, long trips, long[] scalars, int nParams, Object[] arrays, String reason) {
    return nest ? new SettledBytecode(trips, Arrays.copyOf(scalars, nParams), lengths(arrays), reason)
        : new SettledBytecode(trips, null, null, reason);
  }

  /** Whether a launch has this shape, and this is not the launch on which the selection is asked again. */
  boolean covers(long trips, long[] scalars, Object[] arrays) {
    if (trips != this.trips || ++uses % RECHECK == 0) return false;
    if (params == null) return true;
    if (!Arrays.equals(params, 0, params.length, scalars, 0, params.length)) return false;
    if (arrays.length != lengths.length) return false;
    for (int k = 0; k < arrays.length; k++) {
      if (lengths[k] != length(arrays[k])) return false;
    }
    return true;
  }

  private static int[] lengths(Object[] arrays) {
    int[] lengths = new int[arrays.length];
    for (int k = 0; k < arrays.length; k++) lengths[k] = length(arrays[k]);
    return lengths;
  }

  private static int length(Object array) {
    return array != null && array.getClass().isArray() ? Array.getLength(array) : -1;
  }
}

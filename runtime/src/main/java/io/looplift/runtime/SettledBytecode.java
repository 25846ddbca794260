package io.looplift.runtime;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * A site whose selection has settled on its original bytecode, and the launch shape it did so for: while
 * launches keep that shape, the dispatcher declines them at once instead of building a launch and asking the
 * selection again. That request costs some hundred microseconds while the pipeline's code is still
 * interpreted, which a program whose loop runs a few times (or whose loop nest the selection keeps as
 * bytecode) would pay on every run. The selection is asked again all the same after at most {@link #RECHECK}
 * launches, sooner when the launches declined meanwhile add up to the work after which devices join the
 * candidates or when the selection's next re-check of a candidate that lost is due, and at once when a device
 * has opened since; it is told how many launches were declined, whose work counts too. So what it learns later
 * (devices, a re-check, a re-measurement) still counts. Thread-safe.
 */
final class SettledBytecode {
  /** The most launches of the same shape declined at once before the selection is asked again. */
  static final int RECHECK = 64;

  private final long trips;
  /** For a nest, whose work per iteration depends on them: the parameters and the arrays' lengths. */
  private final long[] params;
  private final int[] lengths;
  /** What the report says of each declined launch. */
  final String reason;
  /** How many launches may be declined at once. */
  private final long declinable;
  /** The device executors open when the selection settled; others opening since end this memo. */
  private final Object devices;
  private int declined; // races only make the recheck come a little early or late

  private SettledBytecode(long trips, long[] params, int[] lengths, String reason, long declinable,
      Object devices) {
    this.trips = trips;
    this.params = params;
    this.lengths = lengths;
    this.reason = reason;
    this.declinable = declinable;
    this.devices = devices;
  }

  /**
   * The shape of a launch of {@code trips} iterations; a nest's also of its parameters and arrays.
   *
   * @param launchesBeforeAsking after how many more launches of this shape the selection must be asked again
   *     (devices join its candidates, or a re-check is due; {@link Long#MAX_VALUE} for neither)
   * @param devices the device executors open now, compared by identity
   */
  static SettledBytecode of(boolean nest, long trips, long[] scalars, int nParams, Object[] arrays, String reason,
      long launchesBeforeAsking, Object devices) {
    long declinable = Math.min(RECHECK, launchesBeforeAsking) - 1;
    return nest
        ? new SettledBytecode(trips, Arrays.copyOf(scalars, nParams), lengths(arrays), reason, declinable, devices)
        : new SettledBytecode(trips, null, null, reason, declinable, devices);
  }

  /**
   * Whether a launch has this shape and may be declined at once, with the device executors {@code devices}
   * open now; counts it if so.
   */
  boolean covers(long trips, long[] scalars, Object[] arrays, Object devices) {
    if (trips != this.trips || declined >= declinable || devices != this.devices) return false;
    if (params != null) {
      if (!Arrays.equals(params, 0, params.length, scalars, 0, params.length)) return false;
      if (arrays.length != lengths.length) return false;
      for (int k = 0; k < arrays.length; k++) {
        if (lengths[k] != length(arrays[k])) return false;
      }
    }
    declined++;
    return true;
  }

  /** How many launches this memo declined: their work counts when the selection is asked again. */
  int declined() {
    return declined;
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

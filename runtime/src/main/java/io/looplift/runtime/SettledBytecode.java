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
 * (devices, a re-check, a re-measurement) still counts.
 *
 * <p>A site may also rest ({@link #restFor}): its runs of this length then go to the original loop without
 * being offered at all, until the selection would be asked again (for ever, when it never will), reckoned in
 * time from the launches' pace so far. Thread-safe.
 */
final class SettledBytecode {
  /** The most launches of the same shape declined at once before the selection is asked again. */
  static final int RECHECK = 64;
  /**
   * The shortest rest: resting, and offering again at its end, each has HotSpot compile the methods the loop is
   * in again (tens of milliseconds of a compiler thread, a while in slower code).
   */
  static final long REST_MIN_NANOS = 250_000_000L;

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
  /** After how many more launches of this shape the selection must be asked again, uncapped. */
  private final long beforeAsking;
  /** The run's length as the preamble measures it ({@code LoopBridge.rest}); 0 where unknown. */
  final long length;
  /** When the selection settled, by the dispatcher's clock. */
  private final long since;
  /** Devices were opening: once they open, the selection is asked again, and the site may not rest till then. */
  private final boolean devicesOpening;
  private int declined; // races only make the recheck come a little early or late
  /** When the site started resting, or -1; and the time between its launches then. */
  private long restedAt = -1; // guarded by this
  private long pace; // guarded by this

  private SettledBytecode(long trips, long[] params, int[] lengths, String reason, long beforeAsking, long length,
      long since, Object devices, boolean devicesOpening) {
    this.trips = trips;
    this.params = params;
    this.lengths = lengths;
    this.reason = reason;
    this.beforeAsking = beforeAsking;
    this.declinable = Math.min(RECHECK, beforeAsking) - 1;
    this.length = length;
    this.since = since;
    this.devices = devices;
    this.devicesOpening = devicesOpening;
  }

  /**
   * The shape of a launch of {@code trips} iterations; a nest's also of its parameters and arrays.
   *
   * @param launchesBeforeAsking after how many more launches of this shape the selection must be asked again
   *     (devices join its candidates, or a re-check is due; {@link Long#MAX_VALUE} for neither)
   * @param length the run's length as the preamble measures it (0 where unknown)
   * @param now the dispatcher's clock
   * @param devices the device executors open now, compared by identity
   * @param devicesOpening more devices are opening
   */
  static SettledBytecode of(boolean nest, long trips, long[] scalars, int nParams, Object[] arrays, String reason,
      long launchesBeforeAsking, long length, long now, Object devices, boolean devicesOpening) {
    return nest
        ? new SettledBytecode(trips, Arrays.copyOf(scalars, nParams), lengths(arrays), reason, launchesBeforeAsking,
            length, now, devices, devicesOpening)
        : new SettledBytecode(trips, null, null, reason, launchesBeforeAsking, length, now, devices, devicesOpening);
  }

  /**
   * How long, from {@code now}, the site may rest: {@link Long#MAX_VALUE} when the selection will never be
   * asked again about launches of this shape; otherwise the launches left before it must be, at the pace of
   * those declined so far, when that is at least {@link #REST_MIN_NANOS}; -1 when it may not rest (yet, or any
   * more: it rests already; or devices are opening). The caller rests the site, or calls {@link #unrest} when it
   * could not.
   */
  synchronized long restFor(long now) {
    if (restedAt >= 0 || length <= 0 || devicesOpening) return -1;
    if (beforeAsking == Long.MAX_VALUE) {
      restedAt = now;
      return Long.MAX_VALUE;
    }
    int d = declined;
    if (d < 1) return -1;
    long each = Math.max(1, (now - since) / d);
    long left = beforeAsking - 1 - d;
    if (left <= 0 || left > Long.MAX_VALUE / each || left * each < REST_MIN_NANOS) return -1;
    restedAt = now;
    pace = each;
    return left * each;
  }

  /** Undoes {@link #restFor}: the site could not rest. */
  synchronized void unrest() {
    restedAt = -1;
  }

  /**
   * Whether a launch has this shape and may be declined at once, with the device executors {@code devices}
   * open now; counts it if so.
   */
  boolean covers(long trips, long[] scalars, Object[] arrays, Object devices) {
    if (trips != this.trips || declined >= declinable || devices != this.devices || rested()) return false;
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

  /**
   * How many launches this memo declined by {@code now}, those of its rest reckoned at the pace before it: their
   * work counts when the selection is asked again.
   */
  synchronized int declined(long now) {
    long rested = restedAt >= 0 && pace > 0 ? Math.max(0, now - restedAt) / pace : 0;
    return (int) Math.min(Integer.MAX_VALUE, declined + rested);
  }

  /** A launch that reaches the dispatcher after the site rested comes once the rest is over: ask again. */
  private synchronized boolean rested() {
    return restedAt >= 0;
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

package io.looplift.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.Arrays;
import java.util.function.ObjIntConsumer;

/**
 * Per loop site, how many of its runs were too short to offload, until the site first runs long enough to be
 * offered ({@link #ranLong}): from then on its short runs are the price of its long ones, and are no longer
 * counted. In a class file of Java 7 or later the count is an {@code invokedynamic} ({@link #counter}) that
 * HotSpot compiles as an increment until the site runs long, and as nothing after; {@link #tellMarked} tells
 * of the sites it took to {@link LoopBridge#SHORT_RUNS_TOLD}. The increment neither tests the count nor calls:
 * compiled into a nest's preamble, a call there (made once any site had told) sat on the path back into the
 * original loop, where C2 then kept the nest's arrays on the stack through its inner loop.
 *
 * <p>Counting is racy on purpose: an increment lost between two threads only delays the count, and a lock or
 * an atomic would cost every short run more than the count is for. Through {@link #count(int)}, whichever
 * thread writes {@link LoopBridge#SHORT_RUNS_TOLD} is told so, once per site (two threads that both write it
 * are both told).
 */
final class ShortRuns {
  private static final MethodHandle INCREMENT;
  private static final MethodHandle NOTHING = MethodHandles.empty(MethodType.methodType(void.class));

  static {
    try {
      INCREMENT = MethodHandles.lookup().findVirtual(ShortRuns.class, "increment",
          MethodType.methodType(void.class, int.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ObjIntConsumer<Class<?>> told;

  // Replaced by a longer copy when a site id does not fit (under this object's lock); a thread still
  // reading an old one loses counts only, or marks a site that ran long again (under the lock, where that
  // changes nothing).
  private int[] counts = new int[256];
  private boolean[] ranLong = new boolean[256];
  private final SiteCallSites counters = new SiteCallSites();
  // Guarded by this: the class of each site a counter was made for, and whether it was told.
  private Class<?>[] callers = new Class<?>[256];
  private boolean[] toldOf = new boolean[256];

  /** @param told what {@link #tellMarked} calls with a loop's class and site id once its count makes the mark */
  ShortRuns(ObjIntConsumer<Class<?>> told) {
    this.told = told;
  }

  /**
   * Counts a short run of site {@code siteId}; true when that made its count {@link LoopBridge#SHORT_RUNS_TOLD}.
   * A site that has run long is not counted.
   */
  boolean count(int siteId) {
    int[] c = counts;
    if (siteId < 0) return false;
    if (siteId >= c.length) c = grow(siteId);
    boolean[] l = ranLong;
    if (siteId < l.length && l[siteId]) return false;
    int n = c[siteId] + 1;
    c[siteId] = n;
    return n == LoopBridge.SHORT_RUNS_TOLD;
  }

  /**
   * What a {@link #counter} calls: counts a short run of {@code siteId}, testing nothing ({@link #counter} grew
   * the counts).
   */
  private void increment(int siteId) {
    counts[siteId]++;
  }

  private synchronized int[] grow(int siteId) {
    int[] c = counts;
    if (siteId >= c.length) {
      c = Arrays.copyOf(c, Math.max(c.length * 2, siteId + 1));
      counts = c;
    }
    return c;
  }

  /**
   * The call site that counts the short runs of {@code siteId}, a loop of class {@code caller}: one per site,
   * made on its first call; it does nothing once the site has run long.
   */
  synchronized MutableCallSite counter(int siteId, Class<?> caller) {
    if (siteId >= callers.length) {
      callers = Arrays.copyOf(callers, Math.max(callers.length * 2, siteId + 1));
      toldOf = Arrays.copyOf(toldOf, callers.length);
    }
    if (callers[siteId] == null) callers[siteId] = caller;
    if (siteId >= counts.length) grow(siteId);
    // Under this object's lock, as markRanLong: a site marked meanwhile is either made doing nothing or settled.
    return counters.of(siteId, () -> siteId < ranLong.length && ranLong[siteId] ? NOTHING
        : MethodHandles.insertArguments(INCREMENT, 0, this, siteId));
  }

  /**
   * Tells of each site counted through a {@link #counter} whose count has made the mark since the last call
   * and that has not run long, once per site, with the class the counter was made for.
   */
  void tellMarked() {
    int[] c = counts;
    for (int siteId = 0; siteId < c.length; siteId++) {
      if (c[siteId] < LoopBridge.SHORT_RUNS_TOLD) continue;
      Class<?> caller;
      synchronized (this) {
        if (siteId >= callers.length || callers[siteId] == null || toldOf[siteId]) continue;
        if (siteId < ranLong.length && ranLong[siteId]) continue;
        toldOf[siteId] = true;
        caller = callers[siteId];
      }
      told.accept(caller, siteId);
    }
  }

  /** Says that site {@code siteId} has run long enough to be offered: its short runs are counted no more. */
  void ranLong(int siteId) {
    boolean[] l = ranLong;
    if (siteId < 0 || (siteId < l.length && l[siteId])) return;
    markRanLong(siteId);
  }

  private synchronized void markRanLong(int siteId) {
    if (siteId >= ranLong.length) ranLong = Arrays.copyOf(ranLong, Math.max(ranLong.length * 2, siteId + 1));
    if (ranLong[siteId]) return;
    ranLong[siteId] = true;
    // Once per site: HotSpot throws away the compiled code that calls the count and compiles it without.
    counters.set(siteId, NOTHING);
  }
}

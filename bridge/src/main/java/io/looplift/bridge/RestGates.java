package io.looplift.bridge;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.Arrays;

/**
 * Per loop site, whether its runs long enough to be offered are ({@link #offering}), and while they are not, how
 * long the runs are that it rests ({@link #restedUpTo}): those go to the original loop without being offered to
 * the pipeline, and a longer one opens the site again ({@link #opener}). HotSpot compiles the first two as the
 * constants they return, so that a method whose site rests has no call to {@link LoopBridge#submit} left in it,
 * and compiles the method again when one changes. Thread-safe.
 */
final class RestGates {
  private static final MethodHandle OFFERING = MethodHandles.constant(boolean.class, true);
  private static final MethodHandle RESTING = MethodHandles.constant(boolean.class, false);
  private static final MethodHandle NONE_RESTED = MethodHandles.constant(long.class, 0L);
  private static final MethodHandle OPEN = openHandle();

  private final SiteCallSites offering = new SiteCallSites();
  private final SiteCallSites restedUpTo = new SiteCallSites();
  private long[] upTo = new long[64]; // guarded by this

  /** Whether {@code siteId} offers its runs: made true on its first call, or false if it rests already. */
  synchronized MutableCallSite offering(int siteId) {
    return offering.of(siteId, () -> restsAny(siteId) ? RESTING : OFFERING);
  }

  /** How long the runs are that {@code siteId} rests, made on its first call (0 while it rests none). */
  synchronized MutableCallSite restedUpTo(int siteId) {
    return restedUpTo.of(siteId, () -> MethodHandles.constant(long.class, restsAny(siteId) ? upTo[siteId] : 0L));
  }

  /** What a run longer than {@code siteId} rests calls: {@link #open}. */
  CallSite opener(int siteId) {
    return new ConstantCallSite(MethodHandles.insertArguments(OPEN, 0, this, siteId));
  }

  /**
   * Rests the runs of {@code siteId} no longer than {@code length} (at least 1), unless it rests as long ones
   * already; false when no gate of the site was linked, which then changes nothing.
   */
  synchronized boolean rest(int siteId, long length) {
    if (siteId < 0 || length < 1 || !offering.linked(siteId)) return false;
    if (siteId >= upTo.length) upTo = Arrays.copyOf(upTo, Math.max(upTo.length * 2, siteId + 1));
    if (length <= upTo[siteId]) return true;
    upTo[siteId] = length;
    restedUpTo.set(siteId, MethodHandles.constant(long.class, length));
    offering.set(siteId, RESTING);
    return true;
  }

  /** Offers the runs of {@code siteId} again, whatever their length. */
  synchronized void open(int siteId) {
    if (!restsAny(siteId)) return;
    upTo[siteId] = 0;
    offering.set(siteId, OFFERING);
    restedUpTo.set(siteId, NONE_RESTED);
  }

  private static MethodHandle openHandle() {
    try {
      return MethodHandles.lookup().findVirtual(RestGates.class, "open", MethodType.methodType(void.class, int.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private boolean restsAny(int siteId) {
    return siteId >= 0 && siteId < upTo.length && upTo[siteId] > 0;
  }
}

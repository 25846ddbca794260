package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.profiler.Profiler;
import java.util.function.IntPredicate;

/**
 * Puts a loop back as it was once it has run too short to offload {@link LoopBridge#SHORT_RUNS_TOLD} times
 * and never offloaded, so that it costs nothing any more, not even its preamble's length test, and HotSpot
 * compiles it as it would without the agent: its preamble's switch is turned off
 * ({@link LoopBridge#switchOff}), or, in a class file too old for one, its class is rewritten again without
 * it. A loop that has run long enough to be offered keeps its preamble, its short runs the price of its long
 * ones: the bridge stops counting them then, so it is told only of loops that have never run long (the check
 * of offloaded runs here covers a count that made the mark while another thread offered the loop).
 * Thread-safe; never throws.
 */
final class ShortLoops {
  private static final String RAN_SHORT = "ran " + LoopBridge.SHORT_RUNS_TOLD + " times shorter than min.length"
      + " without ever being offloaded";
  static final String REASON = RAN_SHORT + ", so it was put back as it was";

  private final SiteTable sites;
  private final Profiler profiler;
  private final ClassRewriting rewriting;
  private final IntPredicate switchOff;
  private final Log log;

  /** @param switchOff turns a site's preamble off, false when it has no switch: {@link LoopBridge#switchOff} */
  ShortLoops(SiteTable sites, Profiler profiler, ClassRewriting rewriting, IntPredicate switchOff, Log log) {
    this.sites = sites;
    this.profiler = profiler;
    this.rewriting = rewriting;
    this.switchOff = switchOff;
    this.log = log;
  }

  /** See {@link LoopBridge.Dispatcher#tooShort}. */
  void tooShort(int siteId, Class<?> caller) {
    try {
      SiteTable.Entry e = sites.get(siteId);
      if (e == null || caller == null || !caller.getName().equals(e.site().className())) return;
      if (profiler.offloadedRuns(siteId) > 0 || !sites.keepOriginal(siteId)) return;
      if (switchOff.test(siteId)) {
        putBack(siteId, e);
        return;
      }
      // Loops of the class waiting for an implementation are registered anew too, and replace those waiting.
      rewriting.rewriteAgain(caller, () -> sites.rewritingAgain(caller.getName()), why -> {
        if (why == null) {
          putBack(siteId, e);
        } else {
          sites.takeAgain(siteId);
          log.debug("could not put back " + e.where() + " as it was: " + why);
        }
      });
    } catch (Throwable t) {
      log.debugOnce("short " + t, "internal error after short runs of loop site " + siteId + ": " + t);
    }
  }

  private void putBack(int siteId, SiteTable.Entry e) {
    profiler.siteDiscarded(siteId, REASON);
    log.info("put back " + e.where() + " as it was: it " + RAN_SHORT);
  }
}

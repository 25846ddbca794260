package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.profiler.Profiler;

/**
 * Puts a loop back as it was once it has run too short to offload {@link LoopBridge#SHORT_RUNS_TOLD} times
 * and never offloaded: its class is rewritten again without it, so that it costs nothing any more, not even
 * its preamble's length test, and HotSpot compiles it as it would without the agent. A loop that has been
 * offloaded keeps its rewrite: its short runs are the price of its long ones. Thread-safe; never throws.
 */
final class ShortLoops {
  static final String REASON = "ran " + LoopBridge.SHORT_RUNS_TOLD + " times shorter than min.length without"
      + " ever being offloaded, so its class was rewritten again with this loop as it was";

  private final SiteTable sites;
  private final Profiler profiler;
  private final ClassRewriting rewriting;
  private final Log log;

  ShortLoops(SiteTable sites, Profiler profiler, ClassRewriting rewriting, Log log) {
    this.sites = sites;
    this.profiler = profiler;
    this.rewriting = rewriting;
    this.log = log;
  }

  /** See {@link LoopBridge.Dispatcher#tooShort}. */
  void tooShort(int siteId, Class<?> caller) {
    try {
      SiteTable.Entry e = sites.get(siteId);
      if (e == null || caller == null || !caller.getName().equals(e.site().className())) return;
      if (profiler.offloadedRuns(siteId) > 0 || !sites.keepOriginal(siteId)) return;
      // Loops of the class waiting for an implementation are registered anew too, and replace those waiting.
      rewriting.rewriteAgain(caller, () -> sites.rewritingAgain(caller.getName()), why -> {
        if (why == null) {
          profiler.siteDiscarded(siteId, REASON);
          log.info("put back " + e.where() + " as it was: it " + REASON);
        } else {
          sites.takeAgain(siteId);
          log.debug("could not put back " + e.where() + " as it was: " + why);
        }
      });
    } catch (Throwable t) {
      log.debugOnce("short " + t, "internal error after short runs of loop site " + siteId + ": " + t);
    }
  }
}

package io.looplift.runtime;

import io.looplift.bridge.LoopBridge;
import io.looplift.executors.select.LateDevices;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Rests loop sites ({@link LoopBridge#rest}) and offers their runs again when a rest is over, on a daemon
 * thread, {@code looplift-rests}, started at the first rest that ends. Thread-safe.
 */
class SiteRests {
  private ScheduledThreadPoolExecutor timer; // guarded by this

  /** Rests the runs of {@code siteId} no longer than {@code upTo}; false when the site has no gate. */
  boolean rest(int siteId, long upTo) {
    return LoopBridge.rest(siteId, upTo);
  }

  /** Offers the runs of {@code siteId} again in {@code nanos}. */
  void offerAgainIn(int siteId, long nanos) {
    timer().schedule(() -> LoopBridge.offerAgain(siteId), nanos, TimeUnit.NANOSECONDS);
  }

  private synchronized ScheduledThreadPoolExecutor timer() {
    if (timer == null) {
      timer = new ScheduledThreadPoolExecutor(1, r -> LateDevices.daemon(r, "looplift-rests"));
      timer.setRemoveOnCancelPolicy(true);
    }
    return timer;
  }
}

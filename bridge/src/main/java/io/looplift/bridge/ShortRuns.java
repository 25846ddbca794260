package io.looplift.bridge;

import java.util.Arrays;

/**
 * Per loop site, how many of its runs were too short to offload. Counting is racy on purpose: an increment
 * lost between two threads only delays the count, and a lock or an atomic would cost every short run more
 * than the count is for. Whichever thread writes {@link LoopBridge#SHORT_RUNS_TOLD} is told so, once per
 * site (two threads that both write it are both told).
 */
final class ShortRuns {
  // Replaced by a longer copy when a site id does not fit; a thread still reading the old one loses counts only.
  private int[] counts = new int[256];

  /** Counts a short run of site {@code siteId}; true when that made its count {@link LoopBridge#SHORT_RUNS_TOLD}. */
  boolean count(int siteId) {
    int[] c = counts;
    if (siteId < 0) return false;
    if (siteId >= c.length) c = grow(siteId);
    int n = c[siteId] + 1;
    c[siteId] = n;
    return n == LoopBridge.SHORT_RUNS_TOLD;
  }

  private synchronized int[] grow(int siteId) {
    int[] c = counts;
    if (siteId >= c.length) {
      c = Arrays.copyOf(c, Math.max(c.length * 2, siteId + 1));
      counts = c;
    }
    return c;
  }
}

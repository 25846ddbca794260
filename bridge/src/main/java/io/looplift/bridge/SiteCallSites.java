package io.looplift.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MutableCallSite;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Per loop site, the one {@link MutableCallSite} that every {@code invokedynamic} of a kind links for it: made on
 * the site's first link, and given another target when its owner says ({@link #set}). HotSpot compiles a call
 * through it as its target and, when that changes, throws away the compiled code that relied on it.
 * Thread-safe.
 */
final class SiteCallSites {
  private MutableCallSite[] sites = new MutableCallSite[64]; // guarded by this

  /** The call site of {@code siteId}, made with target {@code first} on its first call. */
  synchronized MutableCallSite of(int siteId, Supplier<MethodHandle> first) {
    if (siteId >= sites.length) sites = Arrays.copyOf(sites, Math.max(sites.length * 2, siteId + 1));
    MutableCallSite s = sites[siteId];
    if (s == null) {
      s = new MutableCallSite(first.get());
      sites[siteId] = s;
    }
    return s;
  }

  /** Whether some {@code invokedynamic} has linked {@code siteId} (its call site is made). */
  synchronized boolean linked(int siteId) {
    return siteId >= 0 && siteId < sites.length && sites[siteId] != null;
  }

  /**
   * Sets the call site of {@code siteId} to {@code target}; false when the site has none (nothing linked it
   * yet), which then changes nothing.
   */
  boolean set(int siteId, MethodHandle target) {
    MutableCallSite s;
    synchronized (this) {
      s = siteId >= 0 && siteId < sites.length ? sites[siteId] : null;
    }
    if (s == null) return false;
    s.setTarget(target);
    MutableCallSite.syncAll(new MutableCallSite[] {s});
    return true;
  }
}

package io.looplift.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MutableCallSite;

/**
 * Per loop site, the call site of the {@code invokedynamic} that opens its preamble: it returns true until the
 * site is switched off, false from then on. HotSpot compiles the call as the constant it returns and, when
 * the target changes, throws away the compiled code that relied on it and compiles the method again without
 * the preamble. Unlike rewriting the class again, that leaves every method of the class as it is: a method
 * running while its class is redefined keeps its old code, which HotSpot never compiles again. Thread-safe.
 */
final class SiteSwitches {
  private static final MethodHandle ON = MethodHandles.constant(boolean.class, true);
  private static final MethodHandle OFF = MethodHandles.constant(boolean.class, false);

  private final SiteCallSites sites = new SiteCallSites();

  /** The switch of {@code siteId}, made on its first call (on, unless the site was switched off before). */
  MutableCallSite of(int siteId) {
    return sites.of(siteId, () -> ON);
  }

  /** Whether a preamble of {@code siteId} has asked for its switch: that it has run at least once. */
  boolean asked(int siteId) {
    return sites.linked(siteId);
  }

  /**
   * Switches {@code siteId} off for good; false when no preamble asked for its switch (its class file is too
   * old for {@code invokedynamic}, or the site never ran), which then stays as it is.
   */
  boolean off(int siteId) {
    return sites.set(siteId, OFF);
  }
}

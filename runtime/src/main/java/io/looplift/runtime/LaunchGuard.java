package io.looplift.runtime;

import io.looplift.ir.LoopTemplate;
import java.util.Arrays;

/**
 * The run-time guards of a loop launch, flat loop or nest: every argument non-null and of its type, every
 * access in bounds over the whole iteration space (rows of arrays of arrays present and long enough), every
 * inner loop counting, no harmful aliasing, and no two iterations that may run at once writing one element.
 * A site's template is compiled into a {@link GuardPlan} on its first launch ({@link GuardCompiler}); a launch
 * then evaluates the plan's invariants and runs its checks on longs, in a per-thread {@link GuardScratch},
 * without the IR interpreter and without allocating (but for the identity set of written rows). Arrays may
 * be {@link TempArray} placeholders, checked by their type and length. Thread-safe.
 */
final class LaunchGuard {
  private final Object lock = new Object();
  // Indexed by site id, copied on growth under lock and re-published with a volatile write, so that the hot
  // path takes no lock and boxes no key; plans are immutable with final fields, so even a racy read is safe.
  private volatile GuardPlan[] plans = new GuardPlan[64];
  private final ThreadLocal<GuardScratch> scratch = ThreadLocal.withInitial(GuardScratch::new);

  /**
   * Null when the launch may run anywhere with Java's results, else a reason a user can read.
   *
   * @param readsBeforeWrites the site reads every element of an iteration before it writes any (see
   *     {@code LoopSite}): a flat loop may then be passed one array as an input and an output
   * @param accs the accumulators' initial values; no guard reads them
   * @param trips at least 1
   */
  String check(int siteId, LoopTemplate t, boolean readsBeforeWrites, Object[] arrays, long[] params, long[] accs,
      int start, int step, long trips) {
    return plan(siteId, t).check(readsBeforeWrites, arrays, params, start, step, trips, scratch.get());
  }

  private GuardPlan plan(int siteId, LoopTemplate t) {
    GuardPlan[] known = plans;
    if (siteId >= 0 && siteId < known.length) {
      GuardPlan p = known[siteId];
      if (p != null && p.template == t) return p;
    }
    // Compiled outside the lock: two threads may both compile a new site, and either plan will do.
    GuardPlan p = GuardCompiler.compile(t);
    if (siteId < 0) return p;
    synchronized (lock) {
      GuardPlan[] a = plans;
      if (siteId >= a.length) a = Arrays.copyOf(a, Math.max(a.length * 2, siteId + 1));
      a[siteId] = p;
      plans = a;
    }
    return p;
  }
}

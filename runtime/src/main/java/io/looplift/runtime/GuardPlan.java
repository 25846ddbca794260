package io.looplift.runtime;

import io.looplift.ir.LoopTemplate;

/**
 * What a site's guards need, worked out once from its template by {@link GuardCompiler}; a launch then runs
 * them in order on longs: argument types, the invariants, bounds over the iteration space, aliasing, and
 * disjoint writes of iterations that may run at once. Immutable (all fields final), so it may be shared
 * between threads however it was published.
 */
final class GuardPlan {
  final LoopTemplate template;
  private final ArgumentTypes types;
  /** Why no launch of the site can be guarded; null when the checks below apply. */
  private final String unguardable;
  private final InvariantCode invariants;
  private final BoundsCheck bounds;
  private final AliasRule aliasing;
  private final WrittenArray[] writes;
  private final int vars;

  GuardPlan(LoopTemplate template, ArgumentTypes types, InvariantCode invariants, BoundsCheck bounds,
      AliasRule aliasing, WrittenArray[] writes, int vars) {
    this.template = template;
    this.types = types;
    this.unguardable = null;
    this.invariants = invariants;
    this.bounds = bounds;
    this.aliasing = aliasing;
    this.writes = writes;
    this.vars = vars;
  }

  /** A plan whose launches all fail, after the type guard, with {@code reason}. */
  GuardPlan(LoopTemplate template, ArgumentTypes types, String reason) {
    this.template = template;
    this.types = types;
    this.unguardable = reason;
    this.invariants = null;
    this.bounds = null;
    this.aliasing = null;
    this.writes = null;
    this.vars = 0;
  }

  /**
   * Null when the launch may run anywhere with Java's results, else a reason a user can read.
   *
   * @param trips at least 1
   * @param s this thread's scratch
   */
  String check(boolean readsBeforeWrites, Object[] arrays, long[] params, int start, int step, long trips,
      GuardScratch s) {
    String failed = types.check(arrays);
    if (failed != null) return failed;
    if (unguardable != null) return unguardable;
    s.prepare(invariants.size(), vars);
    try {
      invariants.evaluate(params, s.slots);
    } catch (RuntimeException e) {
      // Such as a division by zero: the original loop throws it where Java would.
      return "an index or loop bound cannot be evaluated: " + e;
    }
    failed = bounds.check(arrays, s.slots, start, step, trips, s);
    if (failed != null) return failed;
    failed = aliasing.check(arrays, s.slots, s, readsBeforeWrites);
    if (failed != null) return failed;
    for (WrittenArray w : writes) {
      failed = w.check(s.slots, step, s);
      if (failed != null) return failed;
    }
    return null;
  }
}

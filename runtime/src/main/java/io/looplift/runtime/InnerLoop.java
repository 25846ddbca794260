package io.looplift.runtime;

import io.looplift.ir.Cond;
import io.looplift.ir.LoopShape;

/**
 * One inner loop of a nest compiled for its guard: its variable's number, the number of the enclosing loop's
 * variable, its start (affine in the enclosing variables, piece by piece: {@link BoundCode}) and its limit
 * (the same, or the length of a row of an array of arrays at an affine row index). {@link #range} gives the values the variable takes where
 * the enclosing variables lie in given ranges: exact where those ranges are single values, else a superset.
 * Immutable.
 */
final class InnerLoop {
  private final int var;
  private final int parent;
  private final int id;
  private final BoundCode start;
  /** Null when the limit is the length of row {@link #lengthRow} of argument {@link #lengthArray}. */
  private final BoundCode limit;
  private final int lengthArray;
  private final AffineCode lengthRow;
  private final LoopShape shape;

  InnerLoop(int var, int parent, int id, BoundCode start, BoundCode limit, int lengthArray, AffineCode lengthRow,
      LoopShape shape) {
    this.var = var;
    this.parent = parent;
    this.id = id;
    this.start = start;
    this.limit = limit;
    this.lengthArray = lengthArray;
    this.lengthRow = lengthRow;
    this.shape = shape;
  }

  /**
   * The least distance between two different values of the variable anywhere in the iteration space: the
   * step when every run of the loop starts at the same value, else 1.
   */
  long stride() {
    return start.isInvariant() ? Math.abs((long) shape.step()) : 1;
  }

  /** True when the bounds differ from one run of the loop to another. */
  boolean dependent() {
    return !start.isInvariant() || limit == null || !limit.isInvariant();
  }

  /**
   * Sets {@code s.lo[var] .. s.hi[var]} to the values the variable takes while the enclosing variables lie in
   * their ranges ({@code lo > hi} when the loop runs no iteration, or is never reached), and checks that every
   * such run of the loop ends as a counted loop does ({@link LoopShape#trips}).
   *
   * @return null, or why the launch cannot be offloaded
   */
  String range(Object[] arrays, long[] slots, GuardScratch s) {
    long[] lo = s.lo;
    long[] hi = s.hi;
    if (lo[parent] > hi[parent]) return empty(lo, hi);
    long slo;
    long shi;
    long llo;
    long lhi;
    try {
      slo = start.min(slots, lo, hi);
      shi = start.max(slots, lo, hi);
      if (limit != null) {
        llo = limit.min(slots, lo, hi);
        lhi = limit.max(slots, lo, hi);
      } else {
        long rlo = lengthRow.min(slots, lo, hi);
        long rhi = lengthRow.max(slots, lo, hi);
        Object[] rows = (Object[]) arrays[lengthArray];
        if (rlo < 0 || rhi >= rows.length) return "row index out of bounds on array " + lengthArray;
        String failed = s.rowLengths.walk(rows, lengthArray, (int) rlo, (int) rhi);
        if (failed != null) return failed;
        llo = s.rowLengths.min;
        lhi = s.rowLengths.max;
      }
    } catch (ArithmeticException e) {
      // Java computes such a bound in wrapping int arithmetic; not worth following.
      return overflows();
    }
    if (slo == shi && llo == lhi) return exact((int) slo, (int) llo, lo, hi);
    return bounded(slo, shi, llo, lhi, lo, hi);
  }

  /** One run of the loop, from {@code s} to {@code l}: its values exactly. */
  private String exact(int s, int l, long[] lo, long[] hi) {
    long trips = shape.trips(s, l);
    if (trips < 0) return "inner loop " + id + " from " + s + " to " + l + " does not count";
    if (trips == 0) return empty(lo, hi);
    long last = s + (trips - 1) * shape.step();
    lo[var] = Math.min(s, last);
    hi[var] = Math.max(s, last);
    return null;
  }

  /**
   * Runs from any start in {@code [slo, shi]} to any limit in {@code [llo, lhi]}: a superset of their values,
   * and a check that every such run counts. A loop counting the wrong way never does (even when empty); a
   * {@code !=} loop does for every pair only with a step of one toward every limit. An up-counting loop's
   * variable ends below its limit plus its step, a down-counting one's above its limit plus its step, so
   * keeping those within the int range keeps every non-empty run from wrapping.
   */
  private String bounded(long slo, long shi, long llo, long lhi, long[] lo, long[] hi) {
    int step = shape.step();
    boolean up = step > 0;
    boolean direction = switch (shape.cond()) {
      case LT, LE -> up;
      case GT, GE -> !up;
      case NE -> up ? step == 1 && llo >= shi : step == -1 && slo >= lhi;
      default -> false;
    };
    if (!direction) return doesNotCount();
    Cond cond = shape.cond();
    long from = up ? slo : (cond == Cond.GE ? llo : llo + 1);
    long to = up ? (cond == Cond.LE ? lhi : lhi - 1) : shi;
    if (from > to) return empty(lo, hi);
    long after = up ? to + step : from + step;
    // LoopShape.trips also refuses more than Integer.MAX_VALUE iterations.
    if (after > Integer.MAX_VALUE || after < Integer.MIN_VALUE || to - from >= Integer.MAX_VALUE) return doesNotCount();
    lo[var] = from;
    hi[var] = to;
    return null;
  }

  private String doesNotCount() {
    return "inner loop " + id + " may not end as a counted loop";
  }

  private String empty(long[] lo, long[] hi) {
    lo[var] = 1;
    hi[var] = 0;
    return null;
  }

  private String overflows() {
    return "the bounds of inner loop " + id + " overflow an int";
  }
}

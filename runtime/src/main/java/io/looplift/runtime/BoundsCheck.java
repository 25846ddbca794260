package io.looplift.runtime;

import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Every access of a launch in bounds over its whole iteration space, and every inner loop counting. The
 * outermost loop's values are exact; each inner loop's range follows from the ranges of the loops around it
 * ({@link InnerLoop#range}), and each access's index range from those by interval arithmetic on its affine
 * form, exact over a box. A row index range is checked row by row: each row present and long enough for the
 * columns accessed.
 *
 * <p>Where the space is not a box (an inner loop's bounds depend on an enclosing variable: triangles,
 * trapezoids, {@code j < m[i].length}), or the columns of the rows the outermost variable chooses depend on it
 * too ({@code m[i][i]}), one pass first checks the box around the space, a superset: where that passes, so
 * does the space (rectangular rows bounded by their lengths, triangles inside their arrays). Only where it
 * fails are the outermost loop's values <em>enumerated</em>, at the cost of a walk of the rows per value: each
 * pass fixes one value, which makes two-level triangles and per-row lengths exact, an inner loop that runs no
 * iteration for that value contributes nothing, and deeper levels are intervals (a superset, never unsafe).
 * Accesses whose row an inner loop chooses ({@link ArrayAccess#wide}) are then checked once, over the box of the
 * variables' ranges those passes gathered, so that their rows are not walked once per value. (Enumerating a
 * 16,384-row dot product's rows took a quarter of its offloaded time.) Immutable.
 */
final class BoundsCheck {
  private final InnerLoop[] loops;
  /** Checked once per pass: per value of the outermost variable when enumerating. */
  private final ArrayAccess[] accesses;
  /** Checked once over the whole space. */
  private final ArrayAccess[] wide;
  private final ArrayAccess[] all;
  private final boolean enumerates;
  /** The template reads or writes rows: the aliasing guard needs their ranges. */
  private final boolean rows;

  BoundsCheck(InnerLoop[] loops, ArrayAccess[] accesses, ArrayAccess[] wide, boolean enumerates, boolean rows) {
    this.loops = loops;
    this.accesses = accesses;
    this.wide = wide;
    this.all = Stream.concat(Arrays.stream(accesses), Arrays.stream(wide)).toArray(ArrayAccess[]::new);
    this.enumerates = enumerates;
    this.rows = rows;
  }

  /**
   * Checks a launch of {@code trips >= 1} iterations from {@code start} by {@code step}, with the invariants
   * in {@code slots}. Leaves in {@code s.lo}, {@code s.hi} the range of each variable over the space (exact
   * where enumerated, the box's where that passed) and, for a template with rows, in {@code s}'s argument
   * ranges what was accessed and written.
   *
   * @return null, or why the launch cannot be offloaded
   */
  String check(Object[] arrays, long[] slots, int start, int step, long trips, GuardScratch s) {
    try {
      return checkSpace(arrays, slots, start, step, trips, s);
    } finally {
      s.rowLengths.forget(); // holds the program's array of arrays otherwise, in a thread-local scratch
    }
  }

  private String checkSpace(Object[] arrays, long[] slots, int start, int step, long trips, GuardScratch s) {
    long first = start;
    long last = start + (trips - 1) * step;
    resetRanges(arrays, s);
    s.lo[0] = Math.min(first, last);
    s.hi[0] = Math.max(first, last);
    String overBox = pass(all, arrays, slots, s);
    if (!enumerates || overBox == null) return overBox;
    resetRanges(arrays, s);
    int vars = loops.length + 1;
    s.vars.reset(vars);
    long i = first;
    for (long k = 0; k < trips; k++, i += step) {
      s.lo[0] = i;
      s.hi[0] = i;
      String failed = pass(accesses, arrays, slots, s);
      if (failed != null) return failed;
      for (int v = 0; v < vars; v++) {
        if (s.lo[v] <= s.hi[v]) s.vars.widen(v, s.lo[v], s.hi[v]);
      }
    }
    System.arraycopy(s.vars.lo, 0, s.lo, 0, vars);
    System.arraycopy(s.vars.hi, 0, s.hi, 0, vars);
    // Every point of the space lies in the box of those ranges, tighter than inner ranges recomputed over
    // the outermost loop's whole range.
    for (ArrayAccess a : wide) {
      String failed = a.check(arrays, slots, s);
      if (failed != null) return failed;
    }
    return null;
  }

  private void resetRanges(Object[] arrays, GuardScratch s) {
    if (rows) {
      s.rows.reset(arrays.length);
      s.writtenRows.reset(arrays.length);
      s.written.reset(arrays.length);
    }
  }

  private String pass(ArrayAccess[] list, Object[] arrays, long[] slots, GuardScratch s) {
    for (InnerLoop l : loops) {
      String failed = l.range(arrays, slots, s);
      if (failed != null) return failed;
    }
    for (ArrayAccess a : list) {
      String failed = a.check(arrays, slots, s);
      if (failed != null) return failed;
    }
    return null;
  }
}

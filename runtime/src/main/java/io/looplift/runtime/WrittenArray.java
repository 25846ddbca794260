package io.looplift.runtime;

/**
 * The guard that iterations an executor may run at once never write the same element of one written argument:
 * a mixed-radix injectivity test on the coefficients of its stores' affine indices, with their values in the
 * launch. Immutable.
 *
 * <h2>The test</h2>
 * The variables are those of the loops around the argument's stores, the outermost loop's included; the
 * <em>parallel</em> ones are the outermost loop's (unless the template is {@code ordered}) and those of loops
 * marked {@code parallel}. An executor runs at once only iterations in different <em>work items</em>, tuples of
 * values of the parallel variables; within one, everything runs in Java's order. (Counting every loop marked
 * {@code parallel}, not only those an executor spreads, only adds variables to the test: more conservative.)
 * Every store writes element {@code E = c_s + Σ a_v·x_v} where the coefficients
 * {@code a_v} are the same for all of the argument's stores (the analyzer guarantees it; the plan checks it)
 * and only the constants {@code c_s} differ. For each variable {@code v} whose values span a range of width
 * {@code r_v > 0} over the launch, with {@code g_v} the least distance between two of its values (its step
 * when every run of its loop starts at one value, else 1):
 * <ul>
 *   <li>its <em>weight</em> {@code w_v = |a_v|·g_v}, the least change of {@code E} when {@code v} alone
 *       changes, and its <em>span</em> {@code u_v = |a_v|·r_v}, the most;</li>
 *   <li>{@code d}, the spread {@code max c_s - min c_s} of the constants, acting as the lowest digit;</li>
 *   <li>{@code p} the least weight of a parallel variable (none: nothing runs at once; the test passes);</li>
 *   <li>the test: every variable {@code v} with {@code w_v >= p}, parallel or not, has
 *       {@code w_v > d + Σ u_u} over the other variables {@code u} with {@code w_u <= w_v}.</li>
 * </ul>
 * Variables whose range is a single value never change, so they are left out.
 *
 * <h2>Why it is sound</h2>
 * Suppose two writes, of stores {@code s} and {@code s'} at points {@code x} and {@code x'}, fall in different
 * work items, so some parallel variable {@code q} has {@code x_q != x'_q}, and write the same element. The
 * bounds guard has put both indices within the array, where the element Java's wrapping int arithmetic selects
 * is the exact {@code E}, so {@code Σ a_v·(x_v - x'_v) = c_s' - c_s}. Among the variables that differ
 * between the two points take {@code m} of greatest weight; {@code w_m >= w_q >= p}, so the test covers
 * {@code m}. {@code x_m - x'_m} is a non-zero multiple of {@code g_m}, so {@code |a_m·(x_m - x'_m)| >= w_m}.
 * Every other differing variable {@code u} has {@code w_u <= w_m} and {@code |a_u·(x_u - x'_u)| <= u_u}, and
 * {@code |c_s' - c_s| <= d}, so {@code |a_m·(x_m - x'_m)| <= d + Σ u_u < w_m}: a contradiction. Writes within
 * one work item happen in Java's order, so only these could race. Reads need nothing more: a load of a written
 * argument reads an element its own iteration writes (checked by the plan), which no other work item writes.
 *
 * <p>Every step is needed: with index {@code i + 2k}, {@code i} parallel over {@code 0..2} and {@code k}
 * sequential over {@code 0..2}, a test of the parallel variables alone passes ({@code w_i = 1 > 0}), yet
 * {@code i = 0, k = 1} and {@code i = 2, k = 0} both write element 2; here {@code w_k = 2} is not above
 * {@code u_i = 2}, so the test fails.
 *
 * <p>For an array of arrays the element is the pair of row and column. The rows in the written range are
 * distinct objects (the aliasing guard checks that), and every written column lies in {@code [lo, hi]}, so
 * {@code E = row·M + column - lo} with {@code M = hi - lo + 1} numbers the pairs one to one, and is affine
 * with coefficients {@code a_v = row_v·M + column_v}: the same test applies to it. When the nest also reads
 * other columns of the rows it writes (a row's sum, then the row divided by it), the test is of whole rows,
 * {@code E = row}: each written row then belongs to one work item, which may read all of it.
 */
final class WrittenArray {
  private final int array;
  /** The indices of its stores; for an array of arrays, the columns. */
  private final AffineCode[] indices;
  /** The row indices of its stores, in the same order; null for a one-dimensional argument. */
  private final AffineCode[] rows;
  /** Whether the test is of whole rows (see the class comment). */
  private final boolean wholeRows;
  /** The variables of the innermost loops around its stores. */
  private final int[] contexts;
  /** The variables of the loops around its stores (0: the outermost loop's). */
  private final int[] vars;
  private final boolean[] parallel;
  /** By entry of {@link #vars}: {@code g_v} of an inner loop; unused for the outermost, whose step is the launch's. */
  private final long[] strides;

  WrittenArray(int array, AffineCode[] indices, AffineCode[] rows, boolean wholeRows, int[] contexts, int[] vars,
      boolean[] parallel, long[] strides) {
    this.array = array;
    this.indices = indices;
    this.rows = rows;
    this.wholeRows = wholeRows;
    this.contexts = contexts;
    this.vars = vars;
    this.parallel = parallel;
    this.strides = strides;
  }

  /**
   * Runs the test with the invariants in {@code slots} and the ranges the bounds guard left in {@code s}:
   * each variable's over the launch, and for an array of arrays the columns written.
   *
   * @param step the outermost loop's step
   * @return null, or why the launch cannot be offloaded
   */
  String check(long[] slots, int step, GuardScratch s) {
    if (!anyStoreRuns(s)) return null;
    try {
      return test(slots, step, s) ? null : overlap();
    } catch (ArithmeticException e) {
      return overlap(); // coefficients so large that the test cannot be computed in longs
    }
  }

  private boolean test(long[] slots, int step, GuardScratch s) {
    long radix = rows == null ? 0 : s.written.hi[array] - s.written.lo[array] + 1;
    long least = Long.MAX_VALUE;
    for (int k = 0; k < vars.length; k++) {
      int v = vars[k];
      long a = coefficient(k, slots, radix);
      long range = s.lo[v] > s.hi[v] ? 0 : s.hi[v] - s.lo[v];
      long g = v == 0 ? Math.abs((long) step) : strides[k];
      s.weight[k] = Math.multiplyExact(Math.abs(a), g);
      s.span[k] = range == 0 ? -1 : Math.multiplyExact(Math.abs(a), range); // -1: never changes, left out
      if (parallel[k] && range > 0) least = Math.min(least, s.weight[k]);
    }
    if (least == Long.MAX_VALUE) return true;
    long spread = spread(slots, radix);
    for (int k = 0; k < vars.length; k++) {
      if (s.span[k] < 0 || s.weight[k] < least) continue;
      long below = spread;
      for (int j = 0; j < vars.length; j++) {
        if (j != k && s.span[j] >= 0 && s.weight[j] <= s.weight[k]) below = Math.addExact(below, s.span[j]);
      }
      if (s.weight[k] <= below) return false;
    }
    return true;
  }

  private boolean anyStoreRuns(GuardScratch s) {
    for (int c : contexts) {
      if (s.lo[c] <= s.hi[c]) return true;
    }
    return false;
  }

  /** {@code a_v} of entry {@code k}; {@code radix} is {@code M} for an array of arrays. */
  private long coefficient(int k, long[] slots, long radix) {
    if (wholeRows) return rows[0].coefficient(vars[k], slots);
    long column = indices[0].coefficient(vars[k], slots);
    if (rows == null) return column;
    return Math.addExact(Math.multiplyExact(rows[0].coefficient(vars[k], slots), radix), column);
  }

  /** {@code max c_s - min c_s}. */
  private long spread(long[] slots, long radix) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int k = 0; k < indices.length; k++) {
      long c = wholeRows ? rows[k].constant(slots) : indices[k].constant(slots);
      if (rows != null && !wholeRows) c = Math.addExact(Math.multiplyExact(rows[k].constant(slots), radix), c);
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
    return Math.subtractExact(max, min);
  }

  private String overlap() {
    return "iterations that may run at once may write the same element of array " + array;
  }
}

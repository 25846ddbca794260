package io.looplift.runtime;

import java.util.Arrays;

/**
 * The working memory of one guard check, kept per thread and reused by every launch so that checking
 * allocates nothing: the invariants' slots, each loop variable's range in the current pass, and ranges
 * gathered over the launch. Not thread-safe.
 */
final class GuardScratch {
  /** Ranges of values by variable or by argument, widened as a check goes; empty ({@code lo > hi}) at first. */
  static final class Ranges {
    long[] lo = new long[0];
    long[] hi = new long[0];

    void reset(int n) {
      if (lo.length < n) {
        lo = new long[n];
        hi = new long[n];
      }
      Arrays.fill(lo, 0, n, Long.MAX_VALUE);
      Arrays.fill(hi, 0, n, Long.MIN_VALUE);
    }

    void widen(int k, long from, long to) {
      if (from < lo[k]) lo[k] = from;
      if (to > hi[k]) hi[k] = to;
    }

    boolean isEmpty(int k) {
      return lo[k] > hi[k];
    }
  }

  long[] slots = new long[0];
  /**
   * Each variable's values in the current pass (one value of the outermost loop's, or its whole range); once
   * the bounds guard has passed, its values over the launch.
   */
  long[] lo = new long[0];
  long[] hi = new long[0];
  /** Each variable's values over the passes so far, where the outermost loop's values are enumerated. */
  final Ranges vars = new Ranges();
  /**
   * By argument, for nests with arrays of arrays only: the rows read or written, the rows written, the
   * columns written.
   */
  final Ranges rows = new Ranges();
  final Ranges writtenRows = new Ranges();
  final Ranges written = new Ranges();
  /** The rows of an array of arrays walked last in this check. */
  final RowLengths rowLengths = new RowLengths();
  /** By variable, for the disjointness test of one written array. */
  long[] weight = new long[0];
  long[] span = new long[0];

  /** Makes room for a launch of a plan with these sizes; the ranges are reset by those that use them. */
  GuardScratch prepare(int nSlots, int nVars) {
    if (slots.length < nSlots) slots = new long[nSlots];
    if (lo.length < nVars) {
      lo = new long[nVars];
      hi = new long[nVars];
      weight = new long[nVars];
      span = new long[nVars];
    }
    return this;
  }
}

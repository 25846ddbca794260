package io.looplift.runtime;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The aliasing rule of a loop nest: no argument it writes may be reached another way. A written
 * one-dimensional argument is no other argument and no row, in the accessed range, of any array of arrays;
 * the rows a written array of arrays writes are distinct objects, and none of them is another argument or a
 * row, in the accessed range, of another array of arrays. Reads the accessed and written row ranges the
 * bounds guard left in the scratch.
 *
 * <p>Checking hashes every row in the ranges, which costs a nest launched once per iteration of a sequential
 * loop around it (a triangular solve's {@code k} loop: a launch per row, each over the rows below it) a sixth
 * of its time. So the rule keeps the last arguments that passed, with the rows they had in their ranges, and a
 * launch whose arguments are the same objects (but for one-dimensional ones only read, scanned for among the
 * written rows instead), whose ranges lie within those, and whose rows there are still the same objects passes
 * by comparing references: every other pair it would test was tested then. That memory is weak, so it never
 * keeps a program's arrays alive past a collection. Thread-safe.
 */
final class NestAliasing implements AliasRule {
  private final boolean[] written;
  private final boolean[] rows;
  /** The last arguments that passed; null until one did, cleared by the garbage collector. */
  private volatile WeakReference<Passed> passed;

  NestAliasing(boolean[] written, boolean[] rows) {
    this.written = written;
    this.rows = rows;
  }

  @Override
  public String check(Object[] arrays, long[] slots, GuardScratch s, boolean readsBeforeWrites) {
    WeakReference<Passed> last = passed;
    Passed p = last == null ? null : last.get();
    if (p != null && p.covers(arrays, written, rows, s)) return null;
    for (int a = 0; a < arrays.length; a++) {
      if (!written[a]) continue;
      String failed = rows[a] ? writtenRows(arrays, a, s) : writtenArray(arrays, a, s);
      if (failed != null) return failed;
    }
    passed = new WeakReference<>(new Passed(arrays, rows, s));
    return null;
  }

  private String writtenArray(Object[] arrays, int a, GuardScratch s) {
    for (int b = 0; b < arrays.length; b++) {
      if (b != a && arrays[b] == arrays[a]) return "array " + a + " is written and is also array " + b;
      if (rows[b] && !s.rows.isEmpty(b)) {
        Object[] m = (Object[]) arrays[b];
        for (int r = (int) s.rows.lo[b]; r <= s.rows.hi[b]; r++) {
          if (m[r] == arrays[a]) return "array " + a + " is written and is also row " + r + " of array " + b;
        }
      }
    }
    return null;
  }

  private String writtenRows(Object[] arrays, int a, GuardScratch s) {
    if (s.writtenRows.isEmpty(a)) return null;
    Object[] m = (Object[]) arrays[a];
    // Proportional to the rows written, as the loop's own work is; only nests that write rows pay for it.
    int count = (int) (s.writtenRows.hi[a] - s.writtenRows.lo[a] + 1);
    Set<Object> mine = Collections.newSetFromMap(new IdentityHashMap<>(count));
    for (int r = (int) s.writtenRows.lo[a]; r <= s.writtenRows.hi[a]; r++) {
      if (!mine.add(m[r])) return "row " + r + " of array " + a + " is written and is also an earlier row";
    }
    for (int b = 0; b < arrays.length; b++) {
      if (b == a) continue;
      if (!rows[b]) {
        if (mine.contains(arrays[b])) return "array " + b + " is also a written row of array " + a;
        continue;
      }
      if (s.rows.isEmpty(b)) continue;
      Object[] other = (Object[]) arrays[b];
      for (int r = (int) s.rows.lo[b]; r <= s.rows.hi[b]; r++) {
        if (mine.contains(other[r])) return "row " + r + " of array " + b + " is also a written row of array " + a;
      }
    }
    return null;
  }

  /**
   * Arguments that passed: the objects, and for each array of arrays its accessed and written row ranges and
   * the rows in them. Immutable.
   */
  private static final class Passed {
    private final Object[] arrays;
    private final long[] lo;
    private final long[] hi;
    private final long[] writtenLo;
    private final long[] writtenHi;
    /** By argument, rows {@code lo..hi} as they were; null for a one-dimensional argument or no rows. */
    private final Object[][] rowsThen;

    Passed(Object[] arrays, boolean[] rows, GuardScratch s) {
      int n = arrays.length;
      this.arrays = arrays.clone();
      lo = new long[n];
      hi = new long[n];
      writtenLo = new long[n];
      writtenHi = new long[n];
      rowsThen = new Object[n][];
      for (int b = 0; b < n; b++) {
        if (!rows[b]) continue;
        lo[b] = s.rows.lo[b];
        hi[b] = s.rows.hi[b];
        writtenLo[b] = s.writtenRows.lo[b];
        writtenHi[b] = s.writtenRows.hi[b];
        // The written rows lie within the rows accessed.
        if (lo[b] <= hi[b]) rowsThen[b] = Arrays.copyOfRange((Object[]) arrays[b], (int) lo[b], (int) hi[b] + 1);
      }
    }

    /**
     * True when every test of a launch with these arguments and ranges was passed by these, or by these and
     * the scan of the written rows for a one-dimensional argument only read that is another array now (a row
     * the loop around the nest picks, as a triangular solve's {@code x[k]}).
     */
    boolean covers(Object[] now, boolean[] written, boolean[] rows, GuardScratch s) {
      if (now.length != arrays.length) return false;
      boolean changed = false;
      for (int b = 0; b < now.length; b++) {
        if (now[b] == arrays[b]) continue;
        if (written[b] || rows[b]) return false;
        changed = true;
      }
      for (int b = 0; b < now.length; b++) {
        if (!rows[b]) continue; // the scratch's row ranges cover arrays of arrays only (none in some nests)
        if (rowsThen[b] == null) {
          if (!s.rows.isEmpty(b)) return false; // no rows accessed then, some now
          continue;
        }
        long from = s.rows.lo[b];
        long to = s.rows.hi[b];
        if (from > to) continue;
        if (from < lo[b] || to > hi[b]) return false;
        if (!s.writtenRows.isEmpty(b) && (s.writtenRows.lo[b] < writtenLo[b] || s.writtenRows.hi[b] > writtenHi[b])) {
          return false;
        }
        Object[] m = (Object[]) now[b];
        Object[] then = rowsThen[b];
        int shift = (int) lo[b];
        for (int r = (int) from; r <= to; r++) {
          if (m[r] != then[r - shift]) return false;
        }
      }
      return !changed || changedReadsAreNotWritten(now, written, rows, s);
    }

    private boolean changedReadsAreNotWritten(Object[] now, boolean[] written, boolean[] rows, GuardScratch s) {
      for (int b = 0; b < now.length; b++) {
        if (now[b] == arrays[b]) continue;
        for (int a = 0; a < now.length; a++) {
          if (!written[a]) continue;
          if (!rows[a]) {
            if (now[a] == now[b]) return false;
            continue;
          }
          if (s.writtenRows.isEmpty(a)) continue;
          Object[] m = (Object[]) now[a];
          for (int r = (int) s.writtenRows.lo[a]; r <= s.writtenRows.hi[a]; r++) {
            if (m[r] == now[b]) return false;
          }
        }
      }
      return true;
    }
  }
}

package io.looplift.runtime;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The aliasing rule of a loop nest: no argument it writes may be reached another way. A written
 * one-dimensional argument is no other argument and no row, in the accessed range, of any array of arrays;
 * the rows a written array of arrays writes are distinct objects, and none of them is another argument or a
 * row, in the accessed range, of another array of arrays. Reads the accessed and written row ranges the
 * bounds guard left in the scratch. Immutable.
 */
final class NestAliasing implements AliasRule {
  private final boolean[] written;
  private final boolean[] rows;

  NestAliasing(boolean[] written, boolean[] rows) {
    this.written = written;
    this.rows = rows;
  }

  @Override
  public String check(Object[] arrays, long[] slots, GuardScratch s, boolean readsBeforeWrites) {
    for (int a = 0; a < arrays.length; a++) {
      if (!written[a]) continue;
      String failed = rows[a] ? writtenRows(arrays, a, s) : writtenArray(arrays, a, s);
      if (failed != null) return failed;
    }
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
}

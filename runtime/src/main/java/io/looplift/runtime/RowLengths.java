package io.looplift.runtime;

/**
 * The least and greatest length of a range of rows of an array of arrays, each row walked once per guard
 * check: an inner loop bounded by {@code m[i].length}, the length read for it and the accesses {@code m[i][j]}
 * cover the same rows, and each walk of a large matrix touches a cache line (often a page) per row. The rows'
 * lengths are read by a type test per element type, not by reflection, which is a native call per row outside
 * C2's code. Forgotten at the end of every check: rows may change before the next launch, and the array of
 * arrays must not stay reachable from a thread's scratch. Not thread-safe.
 */
final class RowLengths {
  private Object[] rows;
  private int from;
  private int to;
  /** The least and greatest length of the rows last walked. */
  int min;
  int max;

  void forget() {
    rows = null;
  }

  /**
   * Walks rows {@code from..to} of {@code rows}, argument {@code array}, all within its bounds, unless the last
   * walk was of them; leaves their least and greatest lengths in {@link #min} and {@link #max}.
   *
   * @return null, or which row is null
   */
  String walk(Object[] rows, int array, int from, int to) {
    if (rows == this.rows && from == this.from && to == this.to) return null;
    int least = Integer.MAX_VALUE;
    int most = 0;
    for (int r = from; r <= to; r++) {
      Object row = rows[r];
      if (row == null) return nullRow(r, array);
      int n = length(row);
      least = Math.min(least, n);
      most = Math.max(most, n);
    }
    this.rows = rows;
    this.from = from;
    this.to = to;
    min = least;
    max = most;
    return null;
  }

  private static String nullRow(int r, int array) {
    return "row " + r + " of array " + array + " is null";
  }

  /** The length of {@code array}, which is a Java array. */
  static int length(Object array) {
    if (array instanceof double[] a) return a.length;
    if (array instanceof float[] a) return a.length;
    if (array instanceof int[] a) return a.length;
    if (array instanceof long[] a) return a.length;
    if (array instanceof Object[] a) return a.length;
    if (array instanceof byte[] a) return a.length;
    if (array instanceof short[] a) return a.length;
    if (array instanceof char[] a) return a.length;
    return ((boolean[]) array).length;
  }
}

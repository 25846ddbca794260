package io.looplift.runtime;

/**
 * One array access of a template compiled for its bounds check: a load or store of argument {@link #array}
 * at an affine index, in a row at an affine row index when the argument is an array of arrays, or the length
 * of such a row (no index); or a gather, a load at an affine function of values read from an int array argument
 * at an affine index, whose elements between the index's ends are scanned for their least and greatest. {@link #context}
 * is the variable of the innermost loop around it (0: the outermost loop's body): where that loop runs no
 * iteration, the access does not happen. Immutable.
 */
final class ArrayAccess {
  final int array;
  final int context;
  /** Null for the length of a row. */
  final AffineCode index;
  /** Null for a one-dimensional argument. */
  final AffineCode row;
  final boolean store;
  /** For a gather (a load): where its indices come from, {@link #index} then indexing them; null otherwise. */
  final Gather gather;

  /**
   * The indices of a gather: {@code offset + scale · indices[k]}, {@code k} being {@link #index}; the scale and
   * the offset are invariant.
   */
  record Gather(int indices, AffineCode scale, AffineCode offset) {}

  ArrayAccess(int array, int context, AffineCode index, AffineCode row, boolean store, Gather gather) {
    this.array = array;
    this.context = context;
    this.index = index;
    this.row = row;
    this.store = store;
    this.gather = gather;
  }

  /**
   * True when an inner loop's variable chooses the row, or for a gather (its indices are scanned): checked over
   * the whole iteration space at once.
   */
  boolean wide() {
    return gather != null || row != null && row.usesInnerVariables();
  }

  /**
   * Checks the access where each variable {@code v} lies in {@code s.lo[v] .. s.hi[v]}: indices and row
   * indices in bounds, rows non-null. Widens the accessed (and written) ranges of an array of arrays in
   * {@code s}.
   *
   * @return null, or why the launch cannot be offloaded
   */
  String check(Object[] arrays, long[] slots, GuardScratch s) {
    if (s.lo[context] > s.hi[context]) return null;
    try {
      if (row == null) return flat(arrays, slots, s);
      long rlo = row.min(slots, s.lo, s.hi);
      long rhi = row.max(slots, s.lo, s.hi);
      Object[] rows = (Object[]) arrays[array];
      if (rlo < 0 || rhi >= rows.length) return "row index out of bounds on array " + array;
      s.rows.widen(array, rlo, rhi);
      String failed = s.rowLengths.walk(rows, array, (int) rlo, (int) rhi);
      if (failed != null || index == null) return failed;
      long lo = index.min(slots, s.lo, s.hi);
      long hi = index.max(slots, s.lo, s.hi);
      if (lo < 0) return "index out of bounds on array " + array;
      if (hi >= s.rowLengths.min) return shortRow(rows, (int) rlo, hi);
      if (store) {
        s.writtenRows.widen(array, rlo, rhi);
        s.written.widen(array, lo, hi);
      }
      return null;
    } catch (ArithmeticException e) {
      return "index out of bounds on array " + array;
    }
  }

  private String flat(Object[] arrays, long[] slots, GuardScratch s) {
    long lo = index.min(slots, s.lo, s.hi);
    long hi = index.max(slots, s.lo, s.hi);
    if (gather != null) {
      if (!(arrays[gather.indices()] instanceof int[] indices)) {
        return "the indices into array " + array + " are computed in the same flush";
      }
      if (lo < 0 || hi >= indices.length) return "index out of bounds on array " + gather.indices();
      // Every element between the ends, a superset of those read where the index steps by more than one.
      int min = Integer.MAX_VALUE;
      int max = Integer.MIN_VALUE;
      for (int k = (int) lo; k <= hi; k++) {
        min = Math.min(min, indices[k]);
        max = Math.max(max, indices[k]);
      }
      // In long arithmetic, exact where it matters: an int result in bounds is the long one (see Affine).
      long scale = gather.scale().constant(slots);
      long offset = gather.offset().constant(slots);
      lo = offset + Math.min(scale * min, scale * max);
      hi = offset + Math.max(scale * min, scale * max);
    }
    if (lo < 0 || hi >= TempArray.lengthOf(arrays[array])) return "index out of bounds on array " + array;
    return null;
  }

  /** Why a launch that indexes {@code hi} in rows from {@code from} on, one of them shorter, cannot be offloaded. */
  private String shortRow(Object[] rows, int from, long hi) {
    int r = from;
    while (hi < RowLengths.length(rows[r])) r++;
    return "index out of bounds on row " + r + " of array " + array;
  }
}

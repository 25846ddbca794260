package io.looplift.runtime;

import io.looplift.executors.Launch;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of elements {@code [from, to)} that a launch's stores can reach in one of its arrays: argument
 * {@code slot}, or row {@code row} of that argument when it is an array of arrays. Verify mode compares
 * these elements with the reference executor's and, after a mismatch, copies the reference's into them.
 *
 * <p>Only these: other threads of a correct program may write the rest of the same array while the launch
 * runs (a loop over one half of an array on one thread, the other half on another), and comparing or
 * restoring their elements would report their writes as a mismatch and undo them. A flat template's stores
 * are affine, so the range between the two ends of each store's index bounds what it writes (the ranges
 * the OpenCL executor copies back); a nest's stores can reach anywhere, so its written arrays and rows are
 * taken whole.
 *
 * @param row the row of an array of arrays, or -1 for an argument that is itself the array
 */
record WrittenRegion(int slot, int row, int from, int to) {
  /** Every region {@code launch} can write, by argument slot. */
  static List<WrittenRegion> of(Launch launch) {
    LoopTemplate t = launch.template();
    boolean[] written = t.writtenArrays();
    List<WrittenRegion> regions = new ArrayList<>();
    if (launch.trips() == 0) return regions;
    for (int a = 0; a < written.length; a++) {
      if (!written[a]) continue;
      Object array = launch.arrays()[a];
      if (t.isRows(a)) {
        Object[] rows = (Object[]) array;
        for (int r = 0; r < rows.length; r++) {
          if (rows[r] != null) regions.add(new WrittenRegion(a, r, 0, Array.getLength(rows[r])));
        }
      } else if (!t.isFlat()) {
        regions.add(new WrittenRegion(a, -1, 0, Array.getLength(array)));
      } else {
        WrittenRegion range = affineRange(launch, a);
        if (range != null) regions.add(range);
      }
    }
    return regions;
  }

  /** The elements of slot {@code a} between the two ends of its stores' indices, within the array; or null. */
  private static WrittenRegion affineRange(Launch launch, int a) {
    int length = Array.getLength(launch.arrays()[a]);
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    long first = launch.start();
    long last = launch.start() + (long) (launch.trips() - 1) * launch.step();
    Interpreter offsets = new Interpreter(launch.arrays(), launch.params(), launch.accumulators().clone());
    for (Store s : launch.template().stores()) {
      if (s.array() != a) continue;
      AffineIndex index = AffineIndex.of(s.index());
      if (index == null) return new WrittenRegion(a, -1, 0, length);
      long offset = (int) offsets.evaluate(index.offset(), launch.start());
      long e0 = index.scale() * (int) first + offset;
      long e1 = index.scale() * (int) last + offset;
      lo = Math.min(lo, Math.min(e0, e1));
      hi = Math.max(hi, Math.max(e0, e1));
    }
    lo = Math.max(0, lo);
    hi = Math.min(length - 1L, hi);
    return lo > hi ? null : new WrittenRegion(a, -1, (int) lo, (int) hi + 1);
  }

  /** This region's array among {@code arrays}, the arguments of a launch or of its copy. */
  Object in(Object[] arrays) {
    return row < 0 ? arrays[slot] : ((Object[]) arrays[slot])[row];
  }

  /** Where an element of this region is, for people: {@code array 1[17]}, {@code array 0[3][17]}. */
  String where(int index) {
    return "array " + slot + (row < 0 ? "" : "[" + row + "]") + "[" + index + "]";
  }
}

package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.Launch;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Store;
import org.junit.jupiter.api.Test;

/** What stores of a nest can reach over a launch, which bounds what is copied back. */
class ReachTest {
  private static Reach reach(LoopTemplate t, long[] params, int start, int step, int trips) {
    return new Reach(new Launch(t, new Object[t.arrays().size()], params, new long[0], start, step, trips));
  }

  @Test
  void aMatrixProductWritesTheRowsOfItsLaunch() {
    LoopTemplate t = Nests.matrixProduct();
    Store c = t.allStores().get(0);
    // rows 36, 33, ..., 0 of a 45-column c: from element 0 to element 36 * 45 + 44
    assertArrayEquals(new long[] {0, 36 * 45 + 44}, reach(t, new long[] {29, 45}, 36, -3, 13).of(c.index()));
    assertArrayEquals(new long[] {5 * 45, 7 * 45 + 44}, reach(t, new long[] {29, 45}, 5, 1, 3).of(c.index()));
  }

  @Test
  void triangularLoopsRangeFromTheirLeastStartToTheirGreatestLimit() {
    LoopTemplate t = Nests.triangular();
    Reach r = reach(t, new long[] {130}, 10, 1, 20); // i from 10 to 29
    Loop forward = t.loops().get(0);
    Loop backward = t.loops().get(1);
    assertArrayEquals(new long[] {0, 29}, r.of(new LoopVar(forward.id())));
    assertArrayEquals(new long[] {0, 29}, r.of(new LoopVar(backward.id())));
  }

  @Test
  void whatIsNotAffineOrBoundedByRowsIsUnknown() {
    LoopTemplate rows = Nests.normalizeRows();
    Reach r = reach(rows, new long[0], 0, 1, 10);
    Store scale = rows.allStores().get(0);
    assertArrayEquals(new long[] {0, 9}, r.of(scale.row()));
    assertNull(r.of(scale.index()), "a loop bounded by a row's length");
    LoopTemplate masked = Nests.predicated();
    assertNull(reach(masked, new long[0], 0, 1, 10).of(new LoopVar(1)), "a loop bounded by an element");
  }
}

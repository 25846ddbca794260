package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.Launch;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.KernelLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NDRanges and work-group shapes of launches; no device needed. */
class LaunchGeometryTest {
  private static LaunchGeometry of(LoopTemplate t, long[] params, int start, int step, int trips) throws ExecutionException {
    Object[] arrays = new Object[t.arrays().size()];
    return LaunchGeometry.of(KernelLayout.of(t), new Launch(t, arrays, params, new long[0], start, step, trips), 64);
  }

  @Test
  void workGroupsFillAWarpAlongDimensionZeroThenTheOthers() {
    assertArrayEquals(new int[] {32, 2}, LaunchGeometry.workGroup(List.of(1000L, 1000L), 64));
    assertArrayEquals(new int[] {64, 1}, LaunchGeometry.workGroup(List.of(1000L, 1L), 64));
    assertArrayEquals(new int[] {4, 16}, LaunchGeometry.workGroup(List.of(3L, 1000L), 64));
    assertArrayEquals(new int[] {4, 4}, LaunchGeometry.workGroup(List.of(3L, 3L), 64));
    assertArrayEquals(new int[] {32, 2, 1}, LaunchGeometry.workGroup(List.of(100L, 100L, 100L), 64));
    assertArrayEquals(new int[] {8, 4, 2}, LaunchGeometry.workGroup(List.of(5L, 3L, 2L), 64));
    assertArrayEquals(new int[] {64}, LaunchGeometry.workGroup(List.of(100L), 64));
    assertArrayEquals(new int[] {16}, LaunchGeometry.workGroup(List.of(100L), 16));
  }

  @Test
  void aMatrixProductCoversItsColumnsAndRows() throws ExecutionException {
    LaunchGeometry g = of(Nests.matrixProduct(), new long[] {29, 45}, 36, -3, 13);
    assertEquals(List.of(new KernelLaunch.Dimension(64, 32), new KernelLaunch.Dimension(14, 2)), g.range());
    assertEquals(List.of(36, -3, 13, 0, 45), g.scalars());
    assertEquals(0, g.groups());
  }

  @Test
  void anOrderedNestIsItsParallelLoopAlone() throws ExecutionException {
    LaunchGeometry g = of(Nests.columnSums(), new long[] {100}, 0, 1, 77);
    assertEquals(List.of(new KernelLaunch.Dimension(128, 64)), g.range());
    assertEquals(List.of(0, 1, 77, 0, 100), g.scalars());
  }

  @Test
  void aBandLoopWithoutIterationsRunsNothing() throws ExecutionException {
    assertTrue(of(Nests.matrixProduct(), new long[] {29, 0}, 0, 1, 10).empty());
    assertTrue(of(Nests.stencil(), new long[] {1}, 1, 1, 10).empty(), "x from 1 to 0");
  }

  @Test
  void bandBoundsThatThrowOrDoNotCountFailTheLaunch() {
    // for i: for (j < p0 / p1) out[i * 8 + j] = 1, with p1 = 0; and for i: for (j < p0) with p0 wrapping past MAX_VALUE
    Loop divided = new Loop(1, Const.ofInt(0), Binary.of(BinaryOp.DIV, Nests.param(0), Nests.param(1)), Cond.LT, 1, List.of(),
        List.of(new Store(0, Type.INT, Nests.add(Nests.mul(Nests.I, Const.ofInt(8)), Nests.v(1)), Const.ofInt(1), Const.TRUE)), Const.TRUE, true);
    LoopTemplate t = Nests.nest(List.of(Type.INT), List.of(Type.INT, Type.INT), List.of(divided), List.of());
    assertThrows(ExecutionException.class, () -> of(t, new long[] {5, 0}, 0, 1, 3));
    Loop endless = new Loop(1, Const.ofInt(0), Nests.param(0), Cond.LE, 1, List.of(), divided.body(), Const.TRUE, true);
    LoopTemplate u = Nests.nest(List.of(Type.INT), List.of(Type.INT, Type.INT), List.of(endless), List.of());
    assertThrows(ExecutionException.class, () -> of(u, new long[] {Integer.MAX_VALUE, 1}, 0, 1, 3));
  }

  @Test
  void theChunkedLayoutRunsSeveralIterationsPerWorkItemOnlyForManyReductions() throws ExecutionException {
    LaunchGeometry rows = of(Nests.rowDots(), new long[0], 0, 1, 300_001);
    assertEquals(List.of(new KernelLaunch.Dimension(300_032, 64)), rows.range());
    assertEquals(List.of(0, 1, 300_001, 1), rows.scalars());
    // 4096 work-groups of 64 hold 262,144 iterations: beyond that each work item runs two
    LaunchGeometry reduced = of(Nests.rowSumReductions(), new long[] {1}, 0, 1, 300_001);
    assertEquals(List.of(new KernelLaunch.Dimension(2344 * 64, 64)), reduced.range());
    assertEquals(List.of(0, 1, 300_001, 2), reduced.scalars());
    assertEquals(2344, reduced.groups());
  }
}

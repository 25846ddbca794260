package io.looplift.executors.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.Launch;
import io.looplift.executors.LaunchWork;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The work plan of a template, made once and used for many launches of different sizes. */
class LaunchWorkTest {
  @Test
  void aMatrixProductsWorkGrowsWithTheCubeOfItsSize() {
    LoopTemplate matmul = Nests.matmul();
    LaunchWork plan = LaunchWork.of(matmul);
    long small = plan.launch(launch(matmul, 64, 64));
    long large = plan.launch(launch(matmul, 128, 128));
    double ratio = (double) large / small;
    assertTrue(ratio > 7.5 && ratio < 8.5, "n^3: 128 against 64 gives " + ratio);
    assertEquals(small, plan.launch(launch(matmul, 64, 64)), "a launch leaves nothing behind in the plan");
    assertEquals(small, LaunchWork.of(matmul).launch(launch(matmul, 64, 64)), "a second plan agrees");
  }

  @Test
  void boundsThatNeedTheLaunchCountTheAssumedTripsPerIteration() {
    LoopTemplate matmul = Nests.matmul();
    // Both inner loops run to the parameter n: with n = UNKNOWN_TRIPS, one iteration is what the plan assumes.
    assertEquals(LaunchWork.of(matmul).launch(launch(matmul, LaunchWork.UNKNOWN_TRIPS, 1)),
        LaunchWork.of(matmul).perIteration());
  }

  @Test
  void aTriangularNestIsEstimatedAtTheMiddleOfItsOuterRange() {
    LoopTemplate t = Nests.triangular();
    LaunchWork plan = LaunchWork.of(t);
    long n1000 = plan.launch(launch(t, 1000, 1000));
    long n2000 = plan.launch(launch(t, 2000, 2000));
    double ratio = (double) n2000 / n1000;
    assertTrue(ratio > 3.8 && ratio < 4.2, "n^2 / 2: 2000 against 1000 gives " + ratio);
  }

  @Test
  void aFlatTemplatesWorkIsItsTripsTimesItsIterations() {
    // y[i] = 2 * x[i] + y[i]
    Node value = Ir.bin(BinaryOp.ADD, Ir.bin(BinaryOp.MUL, Const.ofFloat(2), Ir.load(0, Type.FLOAT)), Ir.load(1, Type.FLOAT));
    LoopTemplate saxpy = new LoopTemplate(List.of(Type.FLOAT, Type.FLOAT), List.of(), List.of(),
        List.of(Ir.store(1, Type.FLOAT, value)), List.of());
    LaunchWork plan = LaunchWork.of(saxpy);
    assertEquals(LaunchWork.weight(saxpy.roots()), plan.perIteration());
    Launch launch = new Launch(saxpy, new Object[] {new float[10], new float[10]}, new long[0], new long[0], 0, 1, 10);
    assertEquals(10 * plan.perIteration(), plan.launch(launch));
  }

  private static Launch launch(LoopTemplate t, int n, int trips) {
    return new Launch(t, new Object[3], new long[] {n}, new long[t.accumulators().size()], 0, 1, trips);
  }
}

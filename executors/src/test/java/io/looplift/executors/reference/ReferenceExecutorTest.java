package io.looplift.executors.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference executor against loops written in Java. */
class ReferenceExecutorTest {
  private final ReferenceExecutor reference = new ReferenceExecutor();

  @Test
  void mapWithConditionalStoreAndNegativeStep() {
    // for (i = n - 1; i >= 0; i--) { y[i] = x[i] * p + 1; if (x[i] < 0) z[i] = (byte) i; }
    int n = 50;
    double[] x = new double[n];
    for (int k = 0; k < n; k++) x[k] = Math.sin(k) * 10;
    double[] y = new double[n];
    byte[] z = new byte[n];
    Node xi = new Load(0, Type.DOUBLE, Index.I);
    Node value = Binary.of(BinaryOp.ADD, Binary.of(BinaryOp.MUL, xi, new Param(0, Type.DOUBLE)), Const.ofDouble(1));
    Node negative = Compare.of(Cond.LT, Binary.of(BinaryOp.CMPG, xi, Const.ofDouble(0)), Const.ofInt(0));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.BYTE), List.of(Type.DOUBLE), List.of(),
        List.of(new Store(1, Type.DOUBLE, Index.I, value, Const.TRUE),
            new Store(2, Type.BYTE, Index.I, Convert.of(Index.I, Type.BYTE), negative)),
        List.of());
    reference.execute(new Launch(t, new Object[] {x, y, z}, new long[] {Double.doubleToRawLongBits(2.5)}, new long[0],
        n - 1, -1, n), ExecutionOptions.EXACT);
    double[] wantY = new double[n];
    byte[] wantZ = new byte[n];
    for (int i = n - 1; i >= 0; i--) {
      wantY[i] = x[i] * 2.5 + 1;
      if (x[i] < 0) wantZ[i] = (byte) i;
    }
    assertArrayEquals(wantY, y);
    assertArrayEquals(wantZ, z);
  }

  @Test
  void reductionsUpdateSimultaneously() {
    // long a = 1, b = 2; for (...) { long t = b; b = a + x[i]; a = t; }  and  if (x[i] > m) m = x[i];
    int[] x = {5, -3, 9, 9, 2, -7};
    Acc a = new Acc(0, Type.LONG);
    Acc b = new Acc(1, Type.LONG);
    Acc m = new Acc(2, Type.INT);
    Node xi = new Load(0, Type.INT, Index.I);
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(), List.of(Type.LONG, Type.LONG, Type.INT), List.of(),
        List.of(new Reduction(0, Type.LONG, b, null, null),
            new Reduction(1, Type.LONG, Binary.of(BinaryOp.ADD, a, Convert.of(xi, Type.LONG)), null, null),
            new Reduction(2, Type.INT, Select.of(Compare.of(Cond.GT, xi, m), xi, m), ReduceOp.SELECT_GT, xi)));
    long[] accs = {1, 2, Integer.MIN_VALUE};
    reference.execute(new Launch(t, new Object[] {x}, new long[0], accs, 0, 1, x.length), ExecutionOptions.EXACT);
    long wa = 1;
    long wb = 2;
    int wm = Integer.MIN_VALUE;
    for (int v : x) {
      long tmp = wb;
      wb = wa + v;
      wa = tmp;
      if (v > wm) wm = v;
    }
    assertArrayEquals(new long[] {wa, wb, wm}, accs);
  }

  @Test
  void emptyLaunchChangesNothing() {
    Acc s = new Acc(0, Type.FLOAT);
    LoopTemplate t = new LoopTemplate(List.of(), List.of(), List.of(Type.FLOAT), List.of(),
        List.of(new Reduction(0, Type.FLOAT, Binary.of(BinaryOp.ADD, s, Const.ofFloat(1)), ReduceOp.ADD, Const.ofFloat(1))));
    long[] accs = {Float.floatToRawIntBits(-0.0f)};
    reference.execute(new Launch(t, new Object[0], new long[0], accs, 0, 1, 0), ExecutionOptions.EXACT);
    assertEquals(Float.floatToRawIntBits(-0.0f), accs[0]);
    assertEquals("reference", reference.name());
  }
}

package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutionOptions;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToleranceTest {
  private static final ExecutionOptions ULP = new ExecutionOptions(false, true);
  private static final ExecutionOptions REASSOCIATE = new ExecutionOptions(true, false);

  /** {@code s op= f(a[i])}, with {@code f} the given Math function or none. */
  private static LoopTemplate reduce(Type type, ReduceOp op, String function) {
    Node e = new Load(0, type, Index.I);
    if (function != null) e = new Call("java/lang/Math", function, "(D)D", List.of(e));
    BinaryOp bop = op == ReduceOp.ADD ? BinaryOp.ADD : BinaryOp.MUL;
    return new LoopTemplate(List.of(type), List.of(), List.of(type), List.of(),
        List.of(new Reduction(0, type, Binary.of(bop, new Acc(0, type), e), op, e)));
  }

  @Test
  void exactOptionsMeanBitForBit() {
    LoopTemplate t = reduce(Type.DOUBLE, ReduceOp.ADD, "exp");
    Tolerance tol = Tolerance.of(t, ExecutionOptions.EXACT);
    assertTrue(tol.value(Type.DOUBLE).exact());
    assertFalse(tol.needsMagnitude(t.reductions().get(0)));
    assertTrue(tol.reduction(t.reductions().get(0), 1000, 0).exact());
  }

  @Test
  void precisionUlpRelaxesOnlyTemplatesThatCallARelaxedFunction() {
    assertEquals(new Bound(0x1p-26, 0x1p-26), Tolerance.of(reduce(Type.DOUBLE, ReduceOp.ADD, "exp"), ULP).value(Type.DOUBLE));
    assertEquals(new Bound(0x1p-12, 0x1p-12), Tolerance.of(reduce(Type.DOUBLE, ReduceOp.ADD, "sin"), ULP).value(Type.FLOAT));
    // floor is bit-exact on OpenCL too, and integers are never relaxed.
    assertTrue(Tolerance.of(reduce(Type.DOUBLE, ReduceOp.ADD, "floor"), ULP).value(Type.DOUBLE).exact());
    assertTrue(Tolerance.of(reduce(Type.DOUBLE, ReduceOp.ADD, "exp"), ULP).value(Type.INT).exact());
  }

  @Test
  void aReassociatedSumIsBoundedByTheMagnitudeOfItsTerms() {
    LoopTemplate t = reduce(Type.FLOAT, ReduceOp.ADD, null);
    Tolerance tol = Tolerance.of(t, REASSOCIATE);
    Reduction r = t.reductions().get(0);
    assertTrue(tol.needsMagnitude(r));
    assertTrue(tol.value(Type.FLOAT).exact(), "the terms themselves are exact");
    Bound b = tol.reduction(r, 1 << 20, 1000);
    // g = (1 + 2^-24)^(2^20) - 1, a little over 2^-4; 2 g / (1 - g) S.
    double g = Math.expm1((1 << 20) * Math.log1p(0x1p-24));
    assertEquals(2 * g / (1 - g) * 1000, b.abs(), 1e-9);
    assertEquals(0, b.scale());
    assertTrue(b.abs() > 2 * ((1 << 20) - 1) * 0x1p-24 * 1000, "at least the README's 2(n-1) u S");
  }

  @Test
  void aReassociatedProductIsBoundedRelativeToItsValue() {
    LoopTemplate t = reduce(Type.DOUBLE, ReduceOp.MUL, null);
    Tolerance tol = Tolerance.of(t, REASSOCIATE);
    Reduction r = t.reductions().get(0);
    assertFalse(tol.needsMagnitude(r));
    Bound b = tol.reduction(r, 100, 0);
    assertEquals(0, b.abs());
    assertEquals(200 * 0x1p-53, b.scale(), 1e-25);
  }

  @Test
  void integerReductionsStayExactUnderEveryOption() {
    LoopTemplate t = reduce(Type.INT, ReduceOp.ADD, null);
    Tolerance tol = Tolerance.of(t, new ExecutionOptions(true, true));
    assertTrue(tol.reduction(t.reductions().get(0), 1000, 0).exact());
  }

  @Test
  void aSumOfRelaxedTermsAdmitsEachTermsBound() {
    LoopTemplate t = reduce(Type.DOUBLE, ReduceOp.ADD, "exp");
    Tolerance tol = Tolerance.of(t, ULP);
    Reduction r = t.reductions().get(0);
    assertTrue(tol.needsMagnitude(r), "ordered, but its terms are relaxed");
    assertEquals(new Bound(0x1p-26 * 50 + 10 * 0x1p-26, 0), tol.reduction(r, 10, 50));
  }
}

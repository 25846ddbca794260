package io.looplift.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class IrTest {
  private static final Node X = new Param(0, Type.DOUBLE);
  private static final Node N = new Param(1, Type.INT);

  @Test
  void foldsConstantsWithJavaSemantics() {
    assertEquals(Const.ofInt(Integer.MIN_VALUE), Binary.of(BinaryOp.ADD, Const.ofInt(Integer.MAX_VALUE), Const.ofInt(1)));
    assertEquals(Const.ofInt(1 << 1), Binary.of(BinaryOp.SHL, Const.ofInt(1), Const.ofInt(33)));
    assertEquals(Const.ofDouble(Double.NaN), Binary.of(BinaryOp.MIN, Const.ofDouble(Double.NaN), Const.ofDouble(1)));
    assertEquals(Const.ofDouble(-0.0), Binary.of(BinaryOp.MIN, Const.ofDouble(0.0), Const.ofDouble(-0.0)));
    assertEquals(Const.ofInt(0), Convert.of(Const.ofDouble(Double.NaN), Type.INT));
    assertEquals(Const.ofInt(Integer.MAX_VALUE), Convert.of(Const.ofFloat(1e20f), Type.INT));
    assertEquals(Const.ofInt((byte) 300), Convert.of(Const.ofInt(300), Type.BYTE));
    assertEquals(Const.ofInt(-1), Binary.of(BinaryOp.CMPL, Const.ofFloat(Float.NaN), Const.ofFloat(0)));
    assertEquals(Const.ofInt(1), Binary.of(BinaryOp.CMPG, Const.ofFloat(Float.NaN), Const.ofFloat(0)));
  }

  @Test
  void integerDivisionByZeroIsNeverFolded() {
    assertTrue(Binary.of(BinaryOp.DIV, Const.ofInt(1), Const.ofInt(0)) instanceof Binary);
  }

  @Test
  void keepsFloatIdentitiesThatAreNotExact() {
    // -0.0 + 0.0 is 0.0, so x + 0.0 is not x for doubles.
    assertTrue(Binary.of(BinaryOp.ADD, X, Const.ofDouble(0)) instanceof Binary);
    assertSame(N, Binary.of(BinaryOp.ADD, N, Const.ofInt(0)));
    assertSame(X, Select.of(Const.TRUE, X, Const.ofDouble(1)));
  }

  @Test
  void rejectsIllTypedNodes() {
    assertThrows(IllegalArgumentException.class, () -> new Binary(BinaryOp.ADD, X, N));
    assertThrows(IllegalArgumentException.class, () -> new Convert(X, Type.BYTE));
    assertThrows(IllegalArgumentException.class, () -> new Select(N, X, X));
  }

  @Test
  void decomposesAffineIndices() {
    Node i = Index.I;
    AffineIndex a = AffineIndex.of(Binary.of(BinaryOp.ADD, Binary.of(BinaryOp.MUL, i, Const.ofInt(2)), N));
    assertEquals(2, a.scale());
    assertEquals(N, a.offset());
    assertEquals(-1, AffineIndex.of(Binary.of(BinaryOp.SUB, N, i)).scale());
    assertNull(AffineIndex.of(Binary.of(BinaryOp.MUL, i, i)));
    assertNull(AffineIndex.of(new Load(0, Type.INT, i)));
  }

  @Test
  void selectReductionsMatchTheSequentialRule() {
    Type t = Type.FLOAT;
    long acc = ReduceOp.SELECT_LT.identity(t);
    float[] xs = {3f, Float.NaN, -0.0f, 0.0f, -0.0f};
    for (float x : xs) acc = ReduceOp.SELECT_LT.combine(t, acc, Float.floatToRawIntBits(x));
    assertEquals(Float.floatToRawIntBits(-0.0f), (int) acc); // the first of the equal least elements
    long le = ReduceOp.SELECT_LE.identity(t);
    for (float x : new float[] {-0.0f, 0.0f}) le = ReduceOp.SELECT_LE.combine(t, le, Float.floatToRawIntBits(x));
    assertEquals(Float.floatToRawIntBits(0.0f), (int) le); // the last one
  }

  @Test
  void sharedSubgraphsHashInLinearTime() {
    // Each level reads the previous one twice: record-style recursive hashing would take 2^60 steps.
    Node m = X;
    for (int k = 0; k < 60; k++) {
      Node c = new Compare(Cond.LT, new Binary(BinaryOp.CMPG, m, X), Const.ofInt(0));
      m = Select.of(c, m, Binary.of(BinaryOp.ADD, m, Const.ofDouble(k)));
    }
    Node top = m;
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
      assertTrue(Nodes.postOrder(List.of(top)).size() > 100);
      assertEquals(top.hashCode(), top.hashCode());
    });
  }

  @Test
  void interpreterCallsTheJdkMethod() {
    Node call = new Call("java/lang/Math", "exp", "(D)D", List.of(X));
    long bits = new Interpreter(new Object[0], new long[] {Double.doubleToRawLongBits(1.5), 0}, new long[0]).evaluate(call, 0);
    assertEquals(Math.exp(1.5), Double.longBitsToDouble(bits));
  }
}

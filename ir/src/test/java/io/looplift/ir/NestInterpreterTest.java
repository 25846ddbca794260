package io.looplift.ir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loop nests run by the reference interpreter give what the Java loops they stand for give. */
class NestInterpreterTest {
  private static final Node I = Index.I;
  private static final Node ZERO = Const.ofInt(0);

  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }
  private static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  /** {@code for j: { double s = 0; for k: s += a[i*n+k] * b[k*n+j]; c[i*n+j] = s; }} inside {@code for i}. */
  static LoopTemplate matmul() {
    Node n = new Param(0, Type.INT);
    Node j = new LoopVar(1);
    Node k = new LoopVar(2);
    Node s = new CarriedVar(2, 0, Type.DOUBLE);
    Node a = new Load(0, Type.DOUBLE, add(mul(I, n), k), null, 2);
    Node b = new Load(1, Type.DOUBLE, add(mul(k, n), j), null, 2);
    Loop inner = new Loop(2, ZERO, n, Cond.LT, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, mul(a, b)))),
        List.of(), Const.TRUE, false);
    Store c = new Store(2, Type.DOUBLE, add(mul(I, n), j), new LoopOut(2, 0, Type.DOUBLE), Const.TRUE);
    Loop middle = new Loop(1, ZERO, n, Cond.LT, 1, List.of(), List.of(inner, c), Const.TRUE, true);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(),
        List.of(middle), List.of(), List.of(), false);
  }

  @Test
  void aMatrixProductSumsInJavasOrder() {
    int n = 7;
    double[] a = new double[n * n];
    double[] b = new double[n * n];
    for (int x = 0; x < a.length; x++) {
      a[x] = Math.sin(x) * 1e3;
      b[x] = Math.cos(x * 0.7) / 3;
    }
    double[] expected = new double[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        expected[i * n + j] = s;
      }
    }
    double[] c = new double[n * n];
    LoopTemplate t = matmul();
    assertFalse(t.isFlat());
    assertEquals(3, t.depth());
    Interpreter.run(t, new Object[] {a, b, c}, new long[] {n}, new long[0], 0, 1, n);
    assertArrayEquals(expected, c);
  }

  @Test
  void aTriangularLoopOverRowsWithARowReductionThenARowMap() {
    // for i: { double[] r = m[i]; double s = 0; for (j = 0; j <= i; j++) s += r[j]; for (j = 0; j < r.length; j++) r[j] = r[j] / (s + 1); total += s; }
    Node j1 = new LoopVar(1);
    Node j2 = new LoopVar(2);
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop sum = new Loop(1, ZERO, I, Cond.LE, 1,
        List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, new Load(0, Type.DOUBLE, j1, I, 1)))), List.of(),
        Const.TRUE, false);
    Node rowSum = new LoopOut(1, 0, Type.DOUBLE);
    Node scaled = Binary.of(BinaryOp.DIV, new Load(0, Type.DOUBLE, j2, I, 2), add(rowSum, Const.ofDouble(1)));
    Loop map = new Loop(2, ZERO, new Length(0, I), Cond.LT, 1, List.of(),
        List.of(new Store(0, Type.DOUBLE, j2, scaled, Const.TRUE, I)), Const.TRUE, true);
    Node total = add(new Acc(0, Type.DOUBLE), rowSum);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(sum, map),
        List.of(new Reduction(0, Type.DOUBLE, total, null, null)), List.of(0), false);
    double[][] m = new double[5][];
    double[][] expected = new double[5][];
    for (int r = 0; r < 5; r++) {
      m[r] = new double[6];
      for (int c = 0; c < 6; c++) m[r][c] = r * 10 + c + 0.25;
      expected[r] = m[r].clone();
    }
    double expectedTotal = 0.5;
    for (int i = 0; i < 5; i++) {
      double[] r = expected[i];
      double sv = 0;
      for (int j = 0; j <= i; j++) sv += r[j];
      for (int j = 0; j < r.length; j++) r[j] = r[j] / (sv + 1);
      expectedTotal += sv;
    }
    long[] accs = {Double.doubleToRawLongBits(0.5)};
    Interpreter.run(t, new Object[] {m}, new long[0], accs, 0, 1, 5);
    assertArrayEquals(expected, m);
    assertEquals(expectedTotal, Double.longBitsToDouble(accs[0]));
  }

  @Test
  void aLoopWhosePredicateFailsDoesNotRunAndAStoreAfterALoopSeesItsWrites() {
    // for i: { y[i] = 0; if (i % 2 == 0) for (k = 0; k < 3; k++) y[i] = y[i] + x[k]; z[i] = y[i]; }  (epochs 0, 1, 2)
    Node even = Compare.of(Cond.EQ, Binary.of(BinaryOp.AND, I, Const.ofInt(1)), ZERO);
    Node k = new LoopVar(1);
    Node yk = add(new Load(0, Type.INT, I, null, 1), new Load(1, Type.INT, k, null, 1));
    Loop acc = new Loop(1, ZERO, Const.ofInt(3), Cond.LT, 1, List.of(), List.of(new Store(0, Type.INT, I, yk, Const.TRUE)),
        even, false);
    LoopTemplate t = new LoopTemplate(List.of(Type.INT, Type.INT, Type.INT), List.of(), List.of(),
        List.of(new Store(0, Type.INT, I, ZERO, Const.TRUE), acc, new Store(2, Type.INT, I, new Load(0, Type.INT, I, null, 2), Const.TRUE)),
        List.of(), List.of(), false);
    int[] y = {9, 9, 9, 9};
    int[] x = {1, 2, 4};
    int[] z = new int[4];
    Interpreter.run(t, new Object[] {y, x, z}, new long[0], new long[0], 0, 1, 4);
    assertArrayEquals(new int[] {7, 0, 7, 0}, y);
    assertArrayEquals(new int[] {7, 0, 7, 0}, z);
  }

  @Test
  void anInnerLoopThatWouldNotCountIsAnError() {
    Loop wraps = new Loop(1, ZERO, Const.ofInt(Integer.MAX_VALUE), Cond.LE, 1, List.of(), List.of(), Const.TRUE, false);
    LoopTemplate t = new LoopTemplate(List.of(), List.of(), List.of(), List.of(wraps), List.of(), List.of(), false);
    assertThrows(IllegalStateException.class, () -> Interpreter.run(t, new Object[0], new long[0], new long[0], 0, 1, 1));
  }

  @Test
  void affineFormsOfIndices() {
    Node n = new Param(0, Type.INT);
    Node j = new LoopVar(1);
    Affine rowMajor = Affine.of(add(mul(I, n), j));
    assertEquals(Map.of(I, n, j, Const.ofInt(1)), rowMajor.coefficients());
    Affine reversed = Affine.of(Binary.of(BinaryOp.SUB, Binary.of(BinaryOp.SUB, n, Const.ofInt(1)), I));
    assertEquals(Const.ofInt(-1), reversed.coefficient(I));
    Affine strided = Affine.of(add(new Param(1, Type.INT), mul(new Param(2, Type.INT), I)));
    assertEquals(new Param(2, Type.INT), strided.coefficient(I));
    Affine twice = Affine.of(add(mul(Const.ofInt(2), I), Const.ofInt(1)));
    assertEquals(Const.ofInt(2), twice.coefficient(I));
    assertEquals(Const.ofInt(1), twice.constant());
    assertEquals(Const.ofInt(0), Affine.of(Binary.of(BinaryOp.SUB, I, I)).coefficient(I));
    assertNull(Affine.of(mul(I, j)));
    assertNull(Affine.of(new Load(0, Type.INT, I)));
  }
}

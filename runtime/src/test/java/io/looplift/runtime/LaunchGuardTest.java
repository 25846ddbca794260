package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The guards of flat loops and loop nests, on hand-built templates. */
class LaunchGuardTest {
  private static final Node I = Index.I;
  private static final Node J = new LoopVar(1);
  private static final Node K = new LoopVar(2);
  private static final Node N = new Param(0, Type.INT);
  private static final Node ONE = Const.ofDouble(1);

  private final LaunchGuard guard = new LaunchGuard();
  private int sites;

  private static Node c(int v) { return Const.ofInt(v); }
  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }
  private static Node sub(Node x, Node y) { return Binary.of(BinaryOp.SUB, x, y); }
  private static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }
  private static Node load(int array, Node index) { return new Load(array, Type.DOUBLE, index); }
  private static Node load(int array, Node row, Node index) { return new Load(array, Type.DOUBLE, index, row, 0); }
  private static Store store(int array, Node index, Node value) { return new Store(array, Type.DOUBLE, index, value, Const.TRUE); }
  private static Store store(int array, Node row, Node index, Node value) {
    return new Store(array, Type.DOUBLE, index, value, Const.TRUE, row);
  }

  /** {@code for (v = start; v cond limit; v++) body} with no carried values. */
  private static Loop loop(int id, Node start, Cond cond, Node limit, boolean parallel, Stmt... body) {
    return new Loop(id, start, limit, cond, 1, List.of(), List.of(body), Const.TRUE, parallel);
  }

  /** A template over {@code arrays} double arguments (those in {@code rows} arrays of arrays) and int params. */
  private static LoopTemplate nest(int arrays, int params, List<Integer> rows, boolean ordered, Stmt... body) {
    return new LoopTemplate(Collections.nCopies(arrays, Type.DOUBLE), Collections.nCopies(params, Type.INT), List.of(),
        List.of(body), List.of(), rows, ordered);
  }

  private static LoopTemplate flat(int arrays, int params, Store... stores) {
    return new LoopTemplate(Collections.nCopies(arrays, Type.DOUBLE), Collections.nCopies(params, Type.INT), List.of(),
        List.of(stores), List.of());
  }

  private String check(LoopTemplate t, Object[] arrays, long[] params, int start, int trips) {
    return guard.check(sites++, t, false, arrays, params, new long[0], start, 1, trips);
  }

  private static void accepted(String reason) {
    assertNull(reason);
  }

  private static void rejected(String reason, String expected) {
    assertNotNull(reason, "the guard must fail");
    assertTrue(reason.contains(expected), reason);
  }

  /** {@code for i: for j (parallel): { s = 0; for k: s += a[i*n+k] * b[k*n+j]; c[i*n+j] = s; }}. */
  private static LoopTemplate matmul() {
    Node s = new CarriedVar(2, 0, Type.DOUBLE);
    Node product = mul(load(0, add(mul(I, N), K)), load(1, add(mul(K, N), J)));
    Loop dot = new Loop(2, c(0), N, Cond.LT, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, product))),
        List.of(), Const.TRUE, false);
    Loop columns = loop(1, c(0), Cond.LT, N, true, dot, store(2, add(mul(I, N), J), new LoopOut(2, 0, Type.DOUBLE)));
    return nest(3, 1, List.of(), false, columns);
  }

  @Test
  void aRowReadWholeBeforeItIsWrittenBelongsToOneWorkItem() {
    // for i: { s = 1; for j: s += m[i][j]; for k: m[i][k] = m[i][k] / s }: reads all of its own row
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop sum = new Loop(1, c(0), new Length(0, I), Cond.LT, 1,
        List.of(new Carried(Type.DOUBLE, ONE, add(s, load(0, I, J)))), List.of(), Const.TRUE, false);
    Node scaled = Binary.of(BinaryOp.DIV, load(0, I, K), new LoopOut(1, 0, Type.DOUBLE));
    Loop divide = loop(2, c(0), Cond.LT, new Length(0, I), false, store(0, I, K, scaled));
    double[][] m = {new double[3], new double[5], new double[2]};
    accepted(check(nest(1, 0, List.of(0), false, sum, divide), new Object[] {m}, new long[0], 0, 3));
  }

  @Test
  void aRowOthersWriteCannotBeReadWhole() {
    // for i: for j (parallel): m[0][j] = m[0][n - 1 - j] + i: iteration j reads what iteration n-1-j writes
    Loop mirror = loop(1, c(0), Cond.LT, N, true, store(0, c(0), J, add(load(0, c(0), sub(sub(N, c(1)), J)), ONE)));
    double[][] m = {new double[4]};
    rejected(check(nest(1, 1, List.of(0), true, mirror), new Object[] {m}, new long[] {4}, 0, 2), "may write");
  }

  @Test
  void aMatrixProductInBoundsIsAccepted() {
    int n = 6;
    LoopTemplate t = matmul();
    accepted(check(t, new Object[] {new double[n * n], new double[n * n], new double[n * n]}, new long[] {n}, 0, n));
    accepted(check(t, new Object[] {new double[n * n], new double[n * n], new double[n * n]}, new long[] {n}, 2, n - 2));
    rejected(check(t, new Object[] {new double[n * n], new double[n * n - 1], new double[n * n]}, new long[] {n}, 0, n),
        "index out of bounds on array 1");
    rejected(check(t, new Object[] {new double[n * n], new double[n * n], new double[n * n]}, new long[] {n}, 1, n),
        "index out of bounds on array 0");
  }

  @Test
  void aMatrixProductOverRowsChecksEveryRowItReads() {
    // c[i][j] = sum over k of a[i][k] * b[k][j]
    int n = 5;
    Node s = new CarriedVar(2, 0, Type.DOUBLE);
    Loop dot = new Loop(2, c(0), N, Cond.LT, 1,
        List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, mul(load(0, I, K), load(1, K, J))))), List.of(),
        Const.TRUE, false);
    Loop columns = loop(1, c(0), Cond.LT, N, true, dot, store(2, I, J, new LoopOut(2, 0, Type.DOUBLE)));
    LoopTemplate t = nest(3, 1, List.of(0, 1, 2), false, columns);
    double[][] a = new double[n][n];
    double[][] b = new double[n][n];
    double[][] c = new double[n][n];
    accepted(check(t, new Object[] {a, b, c}, new long[] {n}, 0, n));
    b[3] = new double[n - 1];
    rejected(check(t, new Object[] {a, b, c}, new long[] {n}, 0, n), "index out of bounds on row 3 of array 1");
    b[3] = null;
    rejected(check(t, new Object[] {a, b, c}, new long[] {n}, 0, n), "row 3 of array 1 is null");
    b[3] = new double[n];
    c[4] = new double[n - 1];
    rejected(check(t, new Object[] {a, b, c}, new long[] {n}, 0, n), "index out of bounds on row 4 of array 2");
    accepted(check(t, new Object[] {a, b, c}, new long[] {n}, 0, n - 1)); // row 4 of c is not written
  }

  @Test
  void aDiagonalOfJaggedRowsIsCheckedRowByRow() {
    // for i: m[i][i] = 1, over a lower triangle stored as rows of i + 1 elements
    LoopTemplate t = nest(1, 0, List.of(0), false, store(0, I, I, ONE));
    double[][] m = {new double[1], new double[2], new double[3], new double[4]};
    accepted(check(t, new Object[] {m}, new long[0], 0, 4));
    m[2] = new double[2];
    rejected(check(t, new Object[] {m}, new long[0], 0, 4), "index out of bounds on row 2 of array 0");
  }

  @Test
  void aParamThatTakesTheLastRowOutOfRangeIsRejected() {
    // for i: for j < n: c[i*n + j] = a[i*n + j]  over 4 rows of arrays of 19 elements
    Node e = add(mul(I, N), J);
    LoopTemplate t = nest(2, 1, List.of(), false, loop(1, c(0), Cond.LT, N, true, store(0, e, load(1, e))));
    accepted(check(t, new Object[] {new double[19], new double[19]}, new long[] {4}, 0, 4));
    rejected(check(t, new Object[] {new double[19], new double[19]}, new long[] {5}, 0, 4), "index out of bounds on array");
    accepted(check(t, new Object[] {new double[19], new double[19]}, new long[] {5}, 0, 3));
  }

  @Test
  void aTriangleWhoseFirstRowIsEmptyIsAccepted() {
    // for i: for (j = 0; j < i; j++) c[i*n + j] = a[i - 1 - j]: row 0 would read a[-1], but it runs no iteration
    int n = 5;
    Loop lower = loop(1, c(0), Cond.LT, I, true, store(0, add(mul(I, N), J), load(1, sub(sub(I, c(1)), J))));
    LoopTemplate t = nest(2, 1, List.of(), false, lower);
    accepted(check(t, new Object[] {new double[n * n], new double[n - 1]}, new long[] {n}, 0, n));
    rejected(check(t, new Object[] {new double[n * n], new double[n - 2]}, new long[] {n}, 0, n), "index out of bounds on array 1");
  }

  @Test
  void aTriangleThatRunsOutOfRangePartWayIsRejected() {
    // for i: for (j = 0; j <= i; j++) c[i*n + j] = a[j + 3], with a of n elements: fine while i + 3 < n
    int n = 8;
    Loop upper = loop(1, c(0), Cond.LE, I, true, store(0, add(mul(I, N), J), load(1, add(J, c(3)))));
    LoopTemplate t = nest(2, 1, List.of(), false, upper);
    Object[] arrays = {new double[n * n], new double[n]};
    accepted(check(t, arrays, new long[] {n}, 0, n - 3));
    rejected(check(t, arrays, new long[] {n}, 0, n - 2), "index out of bounds on array 1");
  }

  @Test
  void twoStoresInterleavedAreAcceptedAndOverlappingOnesRejected() {
    LoopTemplate pairs = flat(2, 0, store(0, mul(c(2), I), load(1, I)), store(0, add(mul(c(2), I), c(1)), load(1, I)));
    accepted(check(pairs, new Object[] {new double[20], new double[10]}, new long[0], 0, 10));
    LoopTemplate overlap = flat(2, 0, store(0, I, load(1, I)), store(0, add(I, c(1)), load(1, I)));
    rejected(check(overlap, new Object[] {new double[11], new double[10]}, new long[0], 0, 10),
        "may write the same element of array 0");
  }

  @Test
  void aStrideFromAParameterMustBePositive() {
    // c[off + i*stride] = a[i]
    Node off = new Param(0, Type.INT);
    Node stride = new Param(1, Type.INT);
    LoopTemplate t = flat(2, 2, store(0, add(off, mul(I, stride)), load(1, I)));
    Object[] arrays = {new double[40], new double[10]};
    accepted(check(t, arrays, new long[] {3, 1}, 0, 10));
    accepted(check(t, arrays, new long[] {3, 4}, 0, 10));
    rejected(check(t, arrays, new long[] {3, 0}, 0, 10), "may write the same element of array 0");
    rejected(check(t, arrays, new long[] {3, 5}, 0, 10), "index out of bounds on array 0");
    rejected(check(t, arrays, new long[] {3, -1}, 0, 10), "index out of bounds on array 0");
    accepted(check(t, arrays, new long[] {3, 0}, 0, 1)); // one iteration writes one element
  }

  /** {@code for i: for (j = 0; j < m[i].length; j++) m[i][j] = m[i][j] + 1}. */
  private static LoopTemplate rowIncrement() {
    Loop row = loop(1, c(0), Cond.LT, new Length(0, I), true, store(0, I, J, add(load(0, I, J), ONE)));
    return nest(1, 0, List.of(0), false, row);
  }

  @Test
  void rowsOfDifferentLengthsBoundedByTheirLengthsAreAccepted() {
    LoopTemplate t = rowIncrement();
    double[][] jagged = {new double[3], new double[0], new double[7], new double[1]};
    accepted(check(t, new Object[] {jagged}, new long[0], 0, 4));
    jagged[2] = null;
    rejected(check(t, new Object[] {jagged}, new long[0], 0, 4), "row 2 of array 0 is null");
    rejected(check(t, new Object[] {jagged}, new long[0], 3, 2), "row index out of bounds on array 0");
    rejected(check(t, new Object[] {new double[3]}, new long[0], 0, 1), "array 0 is a double[], not a double[][]");
    rejected(check(t, new Object[] {new float[2][2]}, new long[0], 0, 1), "array 0 is a float[][], not a double[][]");
  }

  /**
   * {@code for i: for (j = 0; j < m[i].length; j++) w[i][j] = m[i][j] + x[j]}: one walk of m's rows serves its
   * loop bound and its loads, and w's rows, the same range of another array, are walked on their own.
   */
  @Test
  void rowsOfTwoArraysOverTheSameRangeAreEachChecked() {
    Loop row = loop(1, c(0), Cond.LT, new Length(1, I), true, store(0, I, J, add(load(1, I, J), load(2, J))));
    LoopTemplate t = nest(3, 0, List.of(0, 1), false, row);
    double[][] w = new double[6][5];
    double[][] m = new double[6][5];
    double[] x = new double[5];
    accepted(check(t, new Object[] {w, m, x}, new long[0], 0, 6));
    w[4] = new double[4];
    rejected(check(t, new Object[] {w, m, x}, new long[0], 0, 6), "index out of bounds on row 4 of array 0");
    m[4] = new double[4];
    accepted(check(t, new Object[] {w, m, x}, new long[0], 0, 6)); // row 4 runs to its own length
    w[2] = null;
    rejected(check(t, new Object[] {w, m, x}, new long[0], 0, 6), "row 2 of array 0 is null");
    w[2] = new double[5];
    rejected(check(t, new Object[] {w, m, new double[4]}, new long[0], 0, 6), "index out of bounds on array 2");
    accepted(check(t, new Object[] {w, m, new double[4]}, new long[0], 4, 1)); // row 4 alone reads x[0..3]
  }

  /** The scratch a thread keeps between launches holds no array of arrays a check walked. */
  @Test
  void aCheckedArrayOfArraysStaysCollectable() throws InterruptedException {
    WeakReference<double[][]> rows = checkedRows();
    for (int k = 0; k < 20 && rows.get() != null; k++) {
      System.gc();
      Thread.sleep(10);
    }
    assertTrue(rows.get() == null, "the guard's scratch keeps the checked rows reachable");
  }

  private WeakReference<double[][]> checkedRows() {
    double[][] m = new double[64][1024];
    accepted(check(rowIncrement(), new Object[] {m}, new long[0], 0, m.length));
    return new WeakReference<>(m);
  }

  @Test
  void twoWrittenRowsThatAreOneArrayAreRejected() {
    LoopTemplate t = rowIncrement();
    double[][] m = {new double[4], new double[4], new double[4]};
    accepted(check(t, new Object[] {m}, new long[0], 0, 3));
    m[2] = m[0];
    rejected(check(t, new Object[] {m}, new long[0], 0, 3), "row 2 of array 0 is written and is also an earlier row");
    accepted(check(t, new Object[] {m}, new long[0], 0, 2)); // the repeated row is not written
  }

  @Test
  void aSiteThatPassedChecksAgainWhateverChangedInItsRows() {
    // One site launched again and again, as a nest inside a sequential loop is: what passed is remembered.
    LoopTemplate t = rowIncrement();
    int site = sites++;
    double[][] m = {new double[4], new double[4], new double[4], new double[4]};
    accepted(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 0, 1, 3));
    accepted(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 1, 1, 2)); // rows 1..2
    m[3] = m[0];
    rejected(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 0, 1, 4),
        "row 3 of array 0 is written and is also an earlier row"); // a row beyond those that passed
    m[3] = new double[4];
    accepted(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 0, 1, 4));
    m[2] = m[1];
    rejected(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 1, 1, 2),
        "row 2 of array 0 is written and is also an earlier row"); // within them, but replaced
    accepted(guard.check(site, t, false, new Object[] {m}, new long[0], new long[0], 2, 1, 2));
    double[][] same = {m[0], m[1], m[1], m[3]}; // another array of arrays, its rows as m's
    rejected(guard.check(site, t, false, new Object[] {same}, new long[0], new long[0], 1, 1, 2),
        "row 2 of array 0 is written and is also an earlier row");
  }

  @Test
  void aSiteThatPassedChecksAReadRowThatBecameAWrittenOne() {
    // for i: for j < n: w[i][j] = r[i][j] + x[j], launched again with r's rows changed.
    int n = 4;
    Loop body = loop(1, c(0), Cond.LT, N, true, store(0, I, J, add(load(1, I, J), load(2, J))));
    LoopTemplate t = nest(3, 1, List.of(0, 1), false, body);
    int site = sites++;
    double[][] w = new double[3][n];
    double[][] r = new double[3][n];
    double[] x = new double[n];
    accepted(guard.check(site, t, false, new Object[] {w, r, x}, new long[] {n}, new long[0], 0, 1, 3));
    r[1] = w[2];
    rejected(guard.check(site, t, false, new Object[] {w, r, x}, new long[] {n}, new long[0], 0, 1, 3),
        "row 1 of array 1 is also a written row of array 0");
    accepted(guard.check(site, t, false, new Object[] {w, r, x}, new long[] {n}, new long[0], 2, 1, 1));
    r[1] = new double[n];
    accepted(guard.check(site, t, false, new Object[] {w, r, x}, new long[] {n}, new long[0], 0, 1, 3));
    rejected(guard.check(site, t, false, new Object[] {w, r, w[0]}, new long[] {n}, new long[0], 0, 1, 3),
        "array 2 is also a written row of array 0");
  }

  @Test
  void aSiteOfOneDimensionalArraysPassesAgainAndChecksAgain() {
    // A nest with no array of arrays (the scratch has no row ranges for it), launched again and again.
    LoopTemplate t = matmul();
    int site = sites++;
    int n = 4;
    double[] a = new double[n * n];
    double[] b = new double[n * n];
    double[] c = new double[n * n];
    for (int k = 0; k < 3; k++) {
      accepted(guard.check(site, t, false, new Object[] {a, b, c}, new long[] {n}, new long[0], 0, 1, n));
    }
    accepted(guard.check(site, t, false, new Object[] {a, b, new double[n * n]}, new long[] {n}, new long[0], 0, 1, n));
    rejected(guard.check(site, t, false, new Object[] {a, b, a}, new long[] {n}, new long[0], 0, 1, n),
        "array 2 is written and is also array 0");
  }

  @Test
  void aSiteThatPassedChecksAReadArgumentThatIsAnotherArrayNow() {
    // for i: for j < n: w[i][j] += x[j], x a different array in each launch (the row a loop around it picks).
    int n = 4;
    Loop body = loop(1, c(0), Cond.LT, N, true, store(0, I, J, add(load(0, I, J), load(1, J))));
    LoopTemplate rows = nest(2, 1, List.of(0), false, body);
    int site = sites++;
    double[][] w = new double[3][n];
    accepted(guard.check(site, rows, false, new Object[] {w, new double[n]}, new long[] {n}, new long[0], 0, 1, 3));
    accepted(guard.check(site, rows, false, new Object[] {w, new double[n]}, new long[] {n}, new long[0], 0, 1, 3));
    rejected(guard.check(site, rows, false, new Object[] {w, w[1]}, new long[] {n}, new long[0], 0, 1, 3),
        "array 1 is also a written row of array 0");
    accepted(guard.check(site, rows, false, new Object[] {w, w[1]}, new long[] {n}, new long[0], 2, 1, 1));
    rejected(guard.check(site, rows, false, new Object[] {w, w[2]}, new long[] {n}, new long[0], 2, 1, 1),
        "array 1 is also a written row of array 0");

    // for i: for j < n: c[i*n + j] = m[i][j] + x[j], c written whole: x may not be c.
    LoopTemplate flatOut = nest(3, 1, List.of(1), false,
        loop(1, c(0), Cond.LT, N, true, store(0, add(mul(I, N), J), add(load(1, I, J), load(2, J)))));
    int other = sites++;
    double[] c = new double[3 * n];
    double[][] m = new double[3][n];
    accepted(guard.check(other, flatOut, false, new Object[] {c, m, new double[n]}, new long[] {n}, new long[0], 0, 1, 3));
    rejected(guard.check(other, flatOut, false, new Object[] {c, m, c}, new long[] {n}, new long[0], 0, 1, 3),
        "array 0 is written and is also array 2");
  }

  @Test
  void aWrittenArrayThatIsAlsoAReadRowIsRejected() {
    // for i: for j < n: c[i*n + j] = m[i][j]
    int n = 3;
    LoopTemplate t = nest(2, 1, List.of(1), false, loop(1, c(0), Cond.LT, N, true, store(0, add(mul(I, N), J), load(1, I, J))));
    double[][] m = new double[5][n * n];
    accepted(check(t, new Object[] {new double[n * n], m}, new long[] {n}, 0, n));
    rejected(check(t, new Object[] {m[1], m}, new long[] {n}, 0, n), "array 0 is written and is also row 1 of array 1");
    accepted(check(t, new Object[] {m[4], m}, new long[] {n}, 0, n)); // row 4 is not read
  }

  @Test
  void aWrittenRowThatIsAlsoAnotherArgumentOrAReadRowIsRejected() {
    // for i: for j < n: w[i][j] = r[i][j] + x[j]
    int n = 4;
    Loop body = loop(1, c(0), Cond.LT, N, true, store(0, I, J, add(load(1, I, J), load(2, J))));
    LoopTemplate t = nest(3, 1, List.of(0, 1), false, body);
    double[][] w = new double[3][n];
    double[][] r = new double[3][n];
    double[] x = new double[n];
    accepted(check(t, new Object[] {w, r, x}, new long[] {n}, 0, 3));
    rejected(check(t, new Object[] {w, w, x}, new long[] {n}, 0, 3), "row 0 of array 1 is also a written row of array 0");
    w[1] = x;
    rejected(check(t, new Object[] {w, r, x}, new long[] {n}, 0, 3), "array 2 is also a written row of array 0");
  }

  @Test
  void theCounterexampleOfAParallelVariableBelowASequentialOneIsRejected() {
    // for i (3 values, parallel): for k < 3: c[i + 2k] = 1. i=0,k=1 and i=2,k=0 both write c[2].
    Loop inner = loop(1, c(0), Cond.LT, c(3), false, store(0, add(I, mul(c(2), J)), ONE));
    rejected(check(nest(1, 0, List.of(), false, inner), new Object[] {new double[7]}, new long[0], 0, 3),
        "may write the same element of array 0");
    Loop apart = loop(1, c(0), Cond.LT, c(3), false, store(0, add(I, mul(c(3), J)), ONE));
    accepted(check(nest(1, 0, List.of(), false, apart), new Object[] {new double[9]}, new long[0], 0, 3));
  }

  @Test
  void rowsOfAProductMayNotOverlapWhenTheRowStrideIsTooSmall() {
    // for i: for j < n (parallel): c[i*p + j] = 1 writes rows of n elements p apart
    Node p = new Param(1, Type.INT);
    LoopTemplate t = nest(1, 2, List.of(), false, loop(1, c(0), Cond.LT, N, true, store(0, add(mul(I, p), J), ONE)));
    accepted(check(t, new Object[] {new double[40]}, new long[] {4, 4}, 0, 10));
    accepted(check(t, new Object[] {new double[60]}, new long[] {4, 6}, 0, 10));
    rejected(check(t, new Object[] {new double[40]}, new long[] {4, 3}, 0, 10), "may write the same element of array 0");
    accepted(check(t, new Object[] {new double[40]}, new long[] {4, 3}, 0, 1)); // one row: its elements differ
  }

  @Test
  void anOrderedColumnSumIsAcceptedAndAParallelLoopWritingOneElementIsNot() {
    // for i (in order): for j < n (parallel): s[j] = s[j] + m[i][j]
    Loop columns = loop(1, c(0), Cond.LT, N, true, store(0, J, add(load(0, J), load(1, I, J))));
    LoopTemplate t = nest(2, 1, List.of(1), true, columns);
    double[][] m = new double[6][4];
    accepted(check(t, new Object[] {new double[4], m}, new long[] {4}, 0, 6));
    rejected(check(t, new Object[] {new double[3], m}, new long[] {4}, 0, 6), "index out of bounds on array 0");
    Loop racing = loop(1, c(0), Cond.LT, N, true, store(0, c(0), add(load(0, c(0)), load(1, I, J))));
    rejected(check(nest(2, 1, List.of(1), true, racing), new Object[] {new double[4], m}, new long[] {4}, 0, 6),
        "may write the same element of array 0");
  }

  @Test
  void writtenRowsAreNumberedRowByColumnForTheDisjointnessTest() {
    // for i: for j < n: m[j][i] = 1  (a transpose's writes: columns of distinct rows)
    LoopTemplate t = nest(1, 1, List.of(0), false, loop(1, c(0), Cond.LT, N, true, store(0, J, I, ONE)));
    accepted(check(t, new Object[] {new double[3][5]}, new long[] {3}, 0, 5));
    // m[0][i + j]: one row, columns that overlap between iterations of i
    LoopTemplate shifted = nest(1, 1, List.of(0), false, loop(1, c(0), Cond.LT, N, true, store(0, c(0), add(I, J), ONE)));
    rejected(check(shifted, new Object[] {new double[1][8]}, new long[] {3}, 0, 5), "may write the same element of array 0");
  }

  @Test
  void rowsChosenByAnInnerLoopAreCheckedOverTheValuesItTakes() {
    // for i: for (j = i; j < 2i - 2; j++) c[8i + j] = m[j][0]: j takes 3, 4, 5 for i < 5; rows 0 to 2 are missing
    Loop inner = loop(1, I, Cond.LT, sub(mul(c(2), I), c(2)), false, store(0, add(mul(c(8), I), J), load(1, J, c(0))));
    LoopTemplate t = nest(2, 0, List.of(1), false, inner);
    double[][] m = {null, null, null, new double[1], new double[1], new double[1]};
    accepted(check(t, new Object[] {new double[40], m}, new long[0], 0, 5));
    m[5] = null;
    rejected(check(t, new Object[] {new double[40], m}, new long[0], 0, 5), "row 5 of array 1 is null");
  }

  @Test
  void innerLoopsMustCount() {
    // for i: for (j = 0; j <= p; j++) c[i] = 1: with p = Integer.MAX_VALUE, j would wrap around
    Node p = new Param(0, Type.INT);
    LoopTemplate t = nest(1, 1, List.of(), false, loop(1, c(0), Cond.LE, p, false, store(0, I, ONE)));
    accepted(check(t, new Object[] {new double[4]}, new long[] {100}, 0, 4));
    rejected(check(t, new Object[] {new double[4]}, new long[] {Integer.MAX_VALUE}, 0, 4), "does not count");
    // for i: for (j = i; j != 5; j++): does not end for i > 5
    LoopTemplate ne = nest(1, 0, List.of(), false, loop(1, I, Cond.NE, c(5), false, store(0, I, ONE)));
    accepted(check(ne, new Object[] {new double[6]}, new long[0], 0, 6));
    rejected(check(ne, new Object[] {new double[7]}, new long[0], 0, 7), "inner loop 1 from 6 to 5 does not count");
  }

  @Test
  void deeperLevelsAreBoundedByIntervals() {
    // for i: for (j = 0; j < i; j++) for (k = j; k < i; k++) c[i*n + k] = a[k]
    int n = 6;
    Loop deep = loop(2, J, Cond.LT, I, false, store(0, add(mul(I, N), K), load(1, K)));
    LoopTemplate t = nest(2, 1, List.of(), false, loop(1, c(0), Cond.LT, I, false, deep));
    accepted(check(t, new Object[] {new double[n * n], new double[n - 1]}, new long[] {n}, 0, n));
    rejected(check(t, new Object[] {new double[n * n], new double[n - 2]}, new long[] {n}, 0, n), "index out of bounds on array 1");
  }

  @Test
  void boundsThatAreTheLeastOrGreatestOfAffineFormsAreCheckedPieceByPiece() {
    // for i: for (j = max(0, i - 2); j < min(n, i + 3); j++) c[i] += a[j]: a window clamped at both ends
    Node clamped = Binary.of(BinaryOp.MIN, N, add(I, c(3)));
    Loop window = loop(1, Binary.of(BinaryOp.MAX, c(0), sub(I, c(2))), Cond.LT, clamped, false,
        store(0, I, load(1, J)));
    LoopTemplate t = nest(2, 1, List.of(), false, window);
    accepted(check(t, new Object[] {new double[10], new double[10]}, new long[] {10}, 0, 10));
    // clamped one past the end: the last rows read a[10]
    rejected(check(t, new Object[] {new double[10], new double[10]}, new long[] {11}, 0, 10),
        "index out of bounds on array 1");
    // i + huge wraps in Java, so Math.min would pick the wrapped value: the guard must not follow its own sum
    LoopTemplate wraps = nest(2, 1, List.of(), false, loop(1, c(0), Cond.LT,
        Binary.of(BinaryOp.MIN, c(10), add(I, N)), false, store(0, I, load(1, J))));
    accepted(check(wraps, new Object[] {new double[4], new double[10]}, new long[] {4}, 0, 4));
    rejected(check(wraps, new Object[] {new double[4], new double[10]}, new long[] {Integer.MAX_VALUE}, 0, 4),
        "overflow an int");
  }

  @Test
  void aTailThatStartsWhereAnUnrolledLoopStoppedIsBoundedThroughItsTripCount() {
    // for i: { for (c = 0; c + 4 <= n; c += 4) y[i] = a[c + 3]; for (; c < n; c++) y[i] = a[c]; }, as the
    // analyzer states it: the first loop counts c + 4 from 4, and leaves c at 4 * trips
    Node distance = add(sub(new Convert(N, Type.LONG), Const.ofLong(4)), Const.ofLong(1));
    Node trips = new Convert(Binary.of(BinaryOp.DIV, add(Binary.of(BinaryOp.MAX, Const.ofLong(0), distance),
        Const.ofLong(3)), Const.ofLong(4)), Type.INT);
    Node stopped = sub(add(c(4), mul(trips, c(4))), c(4));
    Loop unrolled = new Loop(1, c(4), N, Cond.LE, 4, List.of(), List.of(store(0, I, load(1, sub(J, c(1))))),
        Const.TRUE, false);
    Loop tail = loop(2, stopped, Cond.LT, N, false, store(0, I, load(1, K)));
    LoopTemplate t = nest(2, 1, List.of(), false, unrolled, tail);
    for (int n : new int[] {0, 3, 8, 10}) {
      accepted(check(t, new Object[] {new double[5], new double[n]}, new long[] {n}, 0, 5));
      if (n > 0) {
        rejected(check(t, new Object[] {new double[5], new double[n - 1]}, new long[] {n}, 0, 5),
            "index out of bounds on array 1");
      }
    }
  }

  @Test
  void aBoundChosenByATestIsCheckedOverBothChoices() {
    // for b: for (k = 0; k < (b == last ? n - 4b : 4); k++) s[b] += a[4b + k]: blocks of four, the last narrower
    Node last = new Param(1, Type.INT);
    Node width = new Select(new Compare(Cond.EQ, I, last), sub(N, mul(c(4), I)), c(4));
    LoopTemplate t = nest(2, 2, List.of(), false,
        loop(1, c(0), Cond.LT, width, false, store(0, I, load(1, add(mul(c(4), I), J)))));
    accepted(check(t, new Object[] {new double[7], new double[27]}, new long[] {27, 6}, 0, 7));
    // the last block claims two more elements than there are
    rejected(check(t, new Object[] {new double[7], new double[27]}, new long[] {29, 6}, 0, 7),
        "index out of bounds on array 1");
  }

  @Test
  void flatLoopsKeepTheirAliasingRule() {
    // b[i] = a[i + shift] * 2: passing one array as both is fine in place (shift 0, reads first) and nowhere else
    for (int shift : new int[] {0, 1}) {
      LoopTemplate t = flat(2, 0, store(1, I, mul(load(0, add(I, c(shift))), Const.ofDouble(2))));
      double[] x = new double[11];
      String inPlace = guard.check(sites++, t, true, new Object[] {x, x}, new long[0], new long[0], 0, 1, 10);
      String unordered = guard.check(sites++, t, false, new Object[] {x, x}, new long[0], new long[0], 0, 1, 10);
      if (shift == 0) accepted(inPlace);
      else rejected(inPlace, "array 1 is written and is also array 0 at another element or order");
      rejected(unordered, "array 1 is written and is also array 0 at another element or order");
    }
  }

  @Test
  void aRegionPlaceholderIsCheckedByItsTypeAndLength() {
    LoopTemplate t = flat(2, 0, store(1, I, load(0, I)));
    accepted(check(t, new Object[] {new double[8], new TempArray(Type.DOUBLE, 8)}, new long[0], 0, 8));
    rejected(check(t, new Object[] {new double[8], new TempArray(Type.DOUBLE, 7)}, new long[0], 0, 8),
        "index out of bounds on array 1");
    rejected(check(t, new Object[] {new double[8], new TempArray(Type.INT, 8)}, new long[0], 0, 8),
        "array 1 is a int[], not a double[]");
  }

  @Test
  void invariantOffsetsAreComputedAsJavaWould() {
    // c[i + Math.floorMod(p, q)] = 1 and c[i + p / q] = 1
    Node p = new Param(0, Type.INT);
    Node q = new Param(1, Type.INT);
    Node floorMod = new Call("java/lang/Math", "floorMod", "(II)I", List.of(p, q));
    LoopTemplate mod = flat(1, 2, store(0, add(I, floorMod), ONE));
    accepted(check(mod, new Object[] {new double[13]}, new long[] {-7, 4}, 0, 12)); // floorMod(-7, 4) = 1
    rejected(check(mod, new Object[] {new double[13]}, new long[] {-6, 4}, 0, 12), "index out of bounds on array 0");
    rejected(check(mod, new Object[] {new double[13]}, new long[] {-7, 0}, 0, 12), "cannot be evaluated");
    LoopTemplate div = flat(1, 2, store(0, add(I, Binary.of(BinaryOp.DIV, p, q)), ONE));
    accepted(check(div, new Object[] {new double[13]}, new long[] {-3, 2}, 1, 12)); // -3 / 2 = -1
    rejected(check(div, new Object[] {new double[13]}, new long[] {3, 0}, 0, 12), "cannot be evaluated");
  }

  @Test
  void aTemplateThatCannotBeGuardedDeclinesEveryLaunch() {
    // c[i] = a[idx[i] * idx[i]]
    Node idx = new Load(2, Type.INT, I);
    LoopTemplate squares = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(), List.of(),
        List.of(store(0, I, load(1, mul(idx, idx)))), List.of());
    String reason = check(squares, new Object[] {new double[4], new double[4], new int[4]}, new long[0], 0, 4);
    assertEquals("the index into array 1 is not affine", reason);
  }

  /** c[i] = a[idx[i + 1]]: a gather. */
  private static LoopTemplate gather() {
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(), List.of(),
        List.of(store(0, I, load(1, new Load(2, Type.INT, add(I, c(1)))))), List.of());
  }

  @Test
  void aGatherIsOffloadedOnlyWhenEveryIndexItReadsIsInBounds() {
    LoopTemplate t = gather();
    int[] idx = {9, 0, 3, 2, 1};
    accepted(check(t, new Object[] {new double[4], new double[4], idx}, new long[0], 0, 4));
    idx[4] = 4;
    rejected(check(t, new Object[] {new double[4], new double[4], idx}, new long[0], 0, 4), "index out of bounds on array 1");
    idx[4] = -1;
    rejected(check(t, new Object[] {new double[4], new double[4], idx}, new long[0], 0, 4), "index out of bounds on array 1");
    // idx[0] (9) is not read: the launch reads idx[1..4].
    idx[4] = 3;
    accepted(check(t, new Object[] {new double[4], new double[4], idx}, new long[0], 0, 4));
    rejected(check(t, new Object[] {new double[4], new double[4], new int[4]}, new long[0], 0, 4),
        "index out of bounds on array 2");
  }

  @Test
  void aGatherThroughAnAffineFunctionOfTheLoadedIndexChecksThatFunctionsEnds() {
    // c[i] = a[n - 2 * idx[i]]
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(Type.INT), List.of(),
        List.of(store(0, I, load(1, sub(N, mul(c(2), new Load(2, Type.INT, I)))))), List.of());
    int[] idx = {0, 3, 1, 2};
    accepted(check(t, new Object[] {new double[4], new double[7], idx}, new long[] {6}, 0, 4)); // 6 - 2 * [0, 3]
    rejected(check(t, new Object[] {new double[4], new double[7], idx}, new long[] {7}, 0, 4),
        "index out of bounds on array 1"); // reaches 7
    idx[1] = 4;
    rejected(check(t, new Object[] {new double[4], new double[7], idx}, new long[] {6}, 0, 4),
        "index out of bounds on array 1"); // reaches -2
  }

  @Test
  void aGatherFromTheWrittenArrayOrByWrittenIndicesIsDeclined() {
    // c[i] = a[idx[i]] with c and a one array, though the site reads before it writes: a template with a
    // gather is guarded as a nest, whose written arrays are no other argument.
    Store gathered = store(0, I, load(1, new Load(2, Type.INT, I)));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(), List.of(),
        List.of(gathered), List.of());
    double[] same = new double[4];
    String reason = guard.check(sites++, t, true, new Object[] {same, same, new int[] {3, 2, 1, 0}}, new long[0],
        new long[0], 0, 1, 4);
    rejected(reason, "array 0 is written and is also array 1");
    // c[i] = a[idx[i]]; idx[i] = 0
    LoopTemplate written = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.INT), List.of(), List.of(),
        List.of(gathered, new Store(2, Type.INT, I, c(0), Const.TRUE)), List.of());
    rejected(check(written, new Object[] {new double[4], new double[4], new int[4]}, new long[0], 0, 4),
        "holds indices and is written");
  }
}

package io.looplift.executors.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.executors.LaunchWork;
import io.looplift.ir.Call;
import io.looplift.ir.Const;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.progen.jvm.NestDimension;
import java.lang.reflect.Array;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Loop nests run by the jvm executor give the reference interpreter's results bit for bit (floating-point
 * values compared as raw bits, NaNs as one): on one thread and split over several, with and without
 * unroll-and-jam.
 */
class JvmNestTest {
  /** Chunks this small split even the small launches of these tests. */
  private static final long TINY_CHUNKS = 1 << 10;
  private static final JvmExecutor ONE = new JvmExecutor(1, TINY_CHUNKS, false);
  private static final JvmExecutor ONE_JAMMED = new JvmExecutor(1, TINY_CHUNKS, true);
  private static final JvmExecutor THREE = new JvmExecutor(3, TINY_CHUNKS, false);
  private static final JvmExecutor THREE_JAMMED = new JvmExecutor(3, TINY_CHUNKS, true);
  private static final List<JvmExecutor> EXECUTORS = List.of(ONE, ONE_JAMMED, THREE, THREE_JAMMED);
  private static final ExecutionOptions EXACT = ExecutionOptions.EXACT;

  @AfterAll
  static void close() {
    EXECUTORS.forEach(JvmExecutor::close);
  }

  @Test
  void matrixProduct() throws Exception {
    Random rnd = new Random(1);
    for (int n : new int[] {1, 3, 4, 13, 16, 23}) {
      Object[] arrays = {doubles(rnd, n * n), doubles(rnd, n * n), doubles(rnd, n * n)};
      long[] params = {n};
      check(Nests.matmul(), arrays, params, 0, 1, n, n >= 13);
      if (n > 3) {
        check(Nests.matmul(), arrays, params, 2, 1, n - 3, null); // a middle range of rows
        check(Nests.matmul(), arrays, params, n - 1, -1, n, null); // rows backwards
      }
    }
  }

  @Test
  void matrixProductOverRowsWithInvariantRows() throws Exception {
    Random rnd = new Random(2);
    for (int n : new int[] {1, 6, 13, 16}) {
      Object[] arrays = {rows(rnd, n, n), rows(rnd, n, n), rows(rnd, n, n)};
      check(Nests.rowsProduct(), arrays, new long[] {n}, 0, 1, n, n == 1 ? Boolean.FALSE : n >= 13 ? Boolean.TRUE : null);
    }
  }

  @Test
  void convolution() throws Exception {
    Random rnd = new Random(3);
    for (int taps : new int[] {1, 3, 4, 31}) {
      int n = 1003;
      Object[] arrays = {floats(rnd, n + taps - 1), floats(rnd, taps), floats(rnd, n)};
      check(Nests.convolution(), arrays, new long[] {taps}, 0, 1, n, true);
      check(Nests.convolution(), arrays, new long[] {taps}, 5, 3, 330, true);
    }
  }

  @Test
  void nBodyStep() throws Exception {
    Random rnd = new Random(4);
    for (int n : new int[] {2, 7, 64, 101}) {
      // eps 0 makes every body's pull on itself 0 * Infinity: NaN forces, whose bits must match too.
      for (float eps : new float[] {1e-3f, 0f}) {
        Object[] arrays = {floats(rnd, n), floats(rnd, n), floats(rnd, n), floats(rnd, n)};
        long[] params = {n, Float.floatToRawIntBits(0.01f), Float.floatToRawIntBits(eps)};
        check(Nests.nbody(), arrays, params, 0, 1, n, n >= 64);
      }
    }
  }

  @Test
  void rowDotProductsWithLengthBoundsEqualAndUnequal() throws Exception {
    Random rnd = new Random(5);
    int n = 43;
    int cols = 21;
    double[][] rectangular = rows(rnd, n, cols);
    double[][] ragged = new double[n][];
    double[][] mostlyEqual = new double[n][];
    for (int r = 0; r < n; r++) {
      ragged[r] = doubles(rnd, rnd.nextInt(cols + 1));
      mostlyEqual[r] = doubles(rnd, r % 9 == 4 ? cols - 3 : cols);
    }
    for (double[][] m : List.of(rectangular, ragged, mostlyEqual)) {
      check(Nests.rowDots(), new Object[] {m, doubles(rnd, cols), doubles(rnd, n)}, new long[0], 0, 1, n, m != ragged ? Boolean.TRUE : null);
    }
  }

  @Test
  void triangularInnerLoop() throws Exception {
    Random rnd = new Random(6);
    int n = 37;
    Object[] arrays = {doubles(rnd, n * n), doubles(rnd, n), doubles(rnd, n)};
    check(Nests.triangular(), arrays, new long[] {n}, 0, 1, n, true);
    check(Nests.triangular(), arrays, new long[] {n}, n - 1, -1, n, true);
  }

  @Test
  void predicatedInnerLoop() throws Exception {
    Random rnd = new Random(7);
    int n = 30;
    int[] mixed = new int[n];
    int[] blocks = new int[n];
    int[] none = new int[n];
    for (int r = 0; r < n; r++) {
      mixed[r] = rnd.nextInt(3) - 1;
      blocks[r] = r / 8 % 2 == 0 ? 1 : -1;
      none[r] = -r;
    }
    for (int[] p : List.of(mixed, blocks, none)) {
      check(Nests.predicated(), new Object[] {p, doubles(rnd, n * n), doubles(rnd, n)}, new long[] {n}, 0, 1, n, true);
    }
  }

  @Test
  void aRowReductionThenARowMapUsingIt() throws Exception {
    Random rnd = new Random(8);
    int n = 26;
    double[][] ragged = new double[n][];
    for (int r = 0; r < n; r++) ragged[r] = doubles(rnd, rnd.nextInt(40));
    for (double[][] m : List.of(rows(rnd, n, 33), ragged)) {
      check(Nests.rowSumThenScale(), new Object[] {m, doubles(rnd, n)}, new long[0], 0, 1, n, m != ragged ? Boolean.TRUE : null);
    }
  }

  @Test
  void orderedColumnSumsSplitAlongTheBand() throws Exception {
    Random rnd = new Random(9);
    int rows = 50;
    for (int cols : new int[] {1, 7, 130, 300, 1000}) {
      Object[] arrays = {doubles(rnd, rows * cols), doubles(rnd, cols)};
      assertTrue(NestDimension.of(Nests.columnSums()).isBand());
      // Each chunk of a band runs the whole outer loop: ranges of at least MIN_BAND_RANGE, one per thread.
      check(Nests.columnSums(), arrays, new long[] {cols}, 0, 1, rows, cols >= 2 * JvmExecutor.MIN_BAND_RANGE);
      check(Nests.columnSums(), arrays, new long[] {cols}, 0, 1, 0, false);
      Launch launch = new Launch(Nests.columnSums(), arrays, new long[] {cols}, new long[0], 0, 1, rows);
      assertTrue(chunks(THREE, launch) <= 3, "no more chunks than threads");
    }
    // A band that changes with the outer loop cannot run outermost: the nest runs whole, in order.
    Object[] arrays = {doubles(rnd, 40 * 40), doubles(rnd, 40)};
    assertFalse(NestDimension.of(Nests.triangularColumnSums()).isBand());
    check(Nests.triangularColumnSums(), arrays, new long[] {40}, 0, 1, 40, false);
  }

  @Test
  void loopsCountingDownByStepsAndNotEqualTestsIntoShorts() throws Exception {
    Random rnd = new Random(11);
    for (int n : new int[] {1, 5, 12, 19}) {
      Object[] arrays = {ints(rnd, n * n), ints(rnd, n * n), new short[n * n]};
      check(Nests.oddShapes(), arrays, new long[] {n}, 0, 1, n, null);
      check(Nests.oddShapes(), arrays, new long[] {n}, n - 1, -2, (n + 1) / 2, null);
    }
  }

  @Test
  void reductionsOverTheOutermostLoopOfANest() throws Exception {
    Random rnd = new Random(10);
    int n = 29;
    // Integer sums split into partials; a double sum runs in Java's order, jammed but on one thread.
    check(Nests.dotTotal(Type.INT), new Object[] {ints(rnd, n * n), ints(rnd, n), ints(rnd, n)}, new long[] {n},
        new long[] {12345}, 0, 1, n, true, EXACT);
    check(Nests.dotTotal(Type.DOUBLE), new Object[] {doubles(rnd, n * n), doubles(rnd, n), doubles(rnd, n)},
        new long[] {n}, new long[] {Double.doubleToRawLongBits(0.5)}, 0, 1, n, false, EXACT);
  }

  @Test
  void reassociatedDoubleTotalsSplitAndRepeat() throws Exception {
    int n = 41;
    Random rnd = new Random(12);
    double[] a = new double[n * n];
    double[] b = new double[n];
    for (int x = 0; x < a.length; x++) a[x] = rnd.nextDouble();
    for (int x = 0; x < n; x++) b[x] = rnd.nextDouble();
    LoopTemplate t = Nests.dotTotal(Type.DOUBLE);
    ExecutionOptions reassociate = new ExecutionOptions(true, false);
    long[] want = {0};
    Interpreter.run(t, new Object[] {a, b, new double[n]}, new long[] {n}, want, 0, 1, n);
    long[] first = null;
    for (int r = 0; r < 3; r++) {
      long[] got = {0};
      Launch launch = new Launch(t, new Object[] {a, b, new double[n]}, new long[] {n}, got, 0, 1, n);
      NestDimension d = NestDimension.of(t);
      assertTrue(THREE_JAMMED.nestChunks(d, () -> LaunchWork.of(launch.template()).launch(launch), n, reassociate) > 1, "splits");
      THREE_JAMMED.execute(launch, reassociate);
      double expected = Double.longBitsToDouble(want[0]);
      assertEquals(expected, Double.longBitsToDouble(got[0]), Math.abs(expected) * 1e-12);
      if (first != null) assertArrayEquals(first, got, "the same chunks combine in the same order every run");
      first = got;
    }
  }

  @Test
  void cheapNestsStayOnTheCallingThread() {
    JvmExecutor two = new JvmExecutor(2);
    try {
      LoopTemplate matmul = Nests.matmul();
      assertEquals(1, chunks(two, new Launch(matmul, new Object[3], new long[] {8}, new long[0], 0, 1, 8)));
      assertTrue(chunks(two, new Launch(matmul, new Object[3], new long[] {256}, new long[0], 0, 1, 256)) > 1);
      // The launch's parameters give the inner trip counts.
      LoopTemplate conv = Nests.convolution();
      assertEquals(1, chunks(two, new Launch(conv, new Object[3], new long[] {31}, new long[0], 0, 1, 1000)));
      assertTrue(chunks(two, new Launch(conv, new Object[3], new long[] {31}, new long[0], 0, 1, 1 << 24)) > 1);
      assertEquals(1, chunks(two, new Launch(Nests.dotTotal(Type.DOUBLE), new Object[3], new long[] {64}, new long[1], 0,
          1, 1 << 24)), "an ordered double sum does not split");
      assertEquals(1, chunks(ONE_JAMMED, new Launch(matmul, new Object[3], new long[] {512}, new long[0], 0, 1, 512)),
          "one thread never splits");
    } finally {
      two.close();
    }
  }

  @Test
  void anUnbuildableNestFailsBeforeWriting() {
    Node bad = new Call("java/lang/Math", "noSuchMethod", "(D)D", List.of(Nests.load(0, Type.DOUBLE, Nests.v(1), 1)));
    LoopTemplate t = Nests.nest(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), Nests.sum(1, Type.DOUBLE, Const.ofInt(3), bad),
        new Store(1, Type.DOUBLE, Nests.I, Nests.out(1, Type.DOUBLE), Const.TRUE));
    double[] out = {7, 7};
    assertThrows(ExecutionException.class,
        () -> THREE_JAMMED.execute(new Launch(t, new Object[] {new double[3], out}, new long[0], new long[0], 0, 1, 2), EXACT));
    assertArrayEquals(new double[] {7, 7}, out);
  }

  // ---- helpers ----------------------------------------------------------------------------------------

  private static void check(LoopTemplate t, Object[] arrays, long[] params, int start, int step, int trips, Boolean splits)
      throws ExecutionException {
    check(t, arrays, params, new long[0], start, step, trips, splits, EXACT);
  }

  /**
   * Runs the launch through every executor on copies of {@code arrays} and compares with the interpreter;
   * {@code splits}: the several-thread executors split it into more than one chunk (false: they must not;
   * null: either).
   */
  private static void check(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int trips,
      Boolean splits, ExecutionOptions options) throws ExecutionException {
    Object[] want = deepCopy(arrays);
    long[] wantAccs = accs.clone();
    Interpreter.run(t, want, params, wantAccs, start, step, trips);
    for (JvmExecutor e : EXECUTORS) {
      Object[] got = deepCopy(arrays);
      long[] gotAccs = accs.clone();
      Launch launch = new Launch(t, got, params, gotAccs, start, step, trips);
      if (splits != null && (e == THREE || e == THREE_JAMMED)) assertEquals(splits, chunks(e, launch) > 1, "splits");
      e.execute(launch, options);
      String where = "executor " + EXECUTORS.indexOf(e) + ", trips " + trips + " from " + start + " by " + step;
      for (int a = 0; a < want.length; a++) assertSameBits(want[a], got[a], where + ", array " + a);
      for (int j = 0; j < accs.length; j++) {
        Type type = t.accumulators().get(j);
        assertEquals(bits(type, wantAccs[j]), bits(type, gotAccs[j]), where + ", accumulator " + j);
      }
    }
  }

  private static int chunks(JvmExecutor e, Launch launch) {
    NestDimension d = NestDimension.of(launch.template());
    int size = d.size(launch.params(), launch.trips());
    return e.nestChunks(d, () -> LaunchWork.of(launch.template()).launch(launch), size, EXACT);
  }

  private static void assertSameBits(Object want, Object got, String where) {
    int n = Array.getLength(want);
    assertEquals(n, Array.getLength(got), where);
    if (want instanceof Object[] rows) {
      for (int r = 0; r < n; r++) assertSameBits(rows[r], ((Object[]) got)[r], where + ", row " + r);
      return;
    }
    Type t = Type.ofDescriptor(want.getClass().getComponentType().descriptorString().charAt(0));
    for (int x = 0; x < n; x++) {
      assertEquals(bits(t, Evaluator.load(want, t, x)), bits(t, Evaluator.load(got, t, x)), where + ", element " + x);
    }
  }

  /**
   * Raw bits, except that every NaN is the canonical one: Java leaves a NaN's sign and payload open, and C2
   * may swap the operands of a commutative operation, which picks the other NaN operand's payload.
   */
  private static long bits(Type t, long raw) {
    return switch (t) {
      case FLOAT -> Float.floatToIntBits(Float.intBitsToFloat((int) raw));
      case DOUBLE -> Double.doubleToLongBits(Double.longBitsToDouble(raw));
      default -> raw;
    };
  }

  private static Object[] deepCopy(Object[] arrays) {
    Object[] c = new Object[arrays.length];
    for (int a = 0; a < arrays.length; a++) {
      if (arrays[a] instanceof Object[] rows) {
        Object[] copy = rows.clone();
        for (int r = 0; r < copy.length; r++) copy[r] = deepCopy(new Object[] {rows[r]})[0];
        c[a] = copy;
      } else {
        int n = Array.getLength(arrays[a]);
        Object copy = Array.newInstance(arrays[a].getClass().getComponentType(), n);
        System.arraycopy(arrays[a], 0, copy, 0, n);
        c[a] = copy;
      }
    }
    return c;
  }

  private static double[] doubles(Random rnd, int n) { return (double[]) Ir.randomArray(rnd, Type.DOUBLE, n); }

  private static float[] floats(Random rnd, int n) { return (float[]) Ir.randomArray(rnd, Type.FLOAT, n); }

  private static int[] ints(Random rnd, int n) { return (int[]) Ir.randomArray(rnd, Type.INT, n); }

  private static double[][] rows(Random rnd, int n, int cols) {
    double[][] m = new double[n][];
    for (int r = 0; r < n; r++) m[r] = doubles(rnd, cols);
    return m;
  }
}

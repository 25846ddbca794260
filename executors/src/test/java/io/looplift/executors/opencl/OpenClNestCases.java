package io.looplift.executors.opencl;

import static io.looplift.executors.opencl.Nests.*;
import static io.looplift.executors.opencl.OpenClTestSupport.assertSameAsReference;
import static io.looplift.executors.opencl.OpenClTestSupport.ints;
import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.ir.Acc;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Const;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loop nests ({@link Nests}) on a real OpenCL device against the reference interpreter: bit for bit, over
 * sizes that are not multiples of any work-group size. Subclasses say how the executor reaches the device.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OpenClNestCases {
  private OpenClExecutor ocl;

  /** An executor on the device under test with programs cached in {@code cacheDir}. */
  abstract OpenClExecutor open(Path cacheDir) throws ExecutionException;

  @BeforeAll
  void openShared(@TempDir Path cacheDir) throws ExecutionException {
    ocl = open(cacheDir);
  }

  @AfterAll
  void close() {
    if (ocl != null) ocl.close();
  }

  /** Gaussian values, where a reordered sum shows in the last bits, with a few zeros of both signs and subnormals. */
  private static float[] floats(Random rnd, int n) {
    float[] v = new float[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(50);
      v[j] = pick == 0 ? -0f : pick == 1 ? Float.MIN_VALUE * rnd.nextInt(100) : (float) (rnd.nextGaussian() * 100);
    }
    return v;
  }

  private static double[] doubles(Random rnd, int n) {
    double[] v = new double[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(50);
      v[j] = pick == 0 ? -0.0 : pick == 1 ? Double.MIN_VALUE * rnd.nextInt(100) : rnd.nextGaussian() * 1e3;
    }
    return v;
  }

  private static float[][] floatRows(Random rnd, int rows, int cols) {
    float[][] m = new float[rows][];
    for (int r = 0; r < rows; r++) m[r] = floats(rnd, cols);
    return m;
  }

  /** Rows of lengths from 0 to {@code longest}, the first one empty. */
  private static double[][] raggedRows(Random rnd, int rows, int longest) {
    double[][] m = new double[rows][];
    for (int r = 0; r < rows; r++) m[r] = doubles(rnd, r == 0 ? 0 : rnd.nextInt(longest + 1));
    return m;
  }

  private void assertSame(LoopTemplate t, Object[] arrays, long[] params, int start, int step, int trips) throws ExecutionException {
    assertTrue(ocl.supports(t, ExecutionOptions.EXACT), () -> "declined: " + t);
    assertSameAsReference(ocl, t, arrays, params, new long[0], start, step, trips, ExecutionOptions.EXACT);
  }

  private static long bits(float f) {
    return Float.floatToRawIntBits(f);
  }

  @Test
  void matrixProductOverTwoParallelDimensions() throws ExecutionException {
    Random rnd = new Random(1);
    int n = 37;
    int m = 29;
    int p = 45;
    LoopTemplate t = matrixProduct();
    Object[] data = {floats(rnd, n * m), floats(rnd, m * p), floats(rnd, n * p)};
    assertSame(t, data, new long[] {m, p}, 0, 1, n);
    assertSame(t, data, new long[] {m, p}, 1, 2, 18); // odd rows only: the rest of c stays as it was
    assertSame(t, data, new long[] {m, p}, 36, -3, 13);
  }

  @Test
  void matrixProductOverRowsWithARowTheInnerLoopsShare() throws ExecutionException {
    Random rnd = new Random(2);
    int n = 23;
    int m = 31;
    int p = 70;
    Object[] data = {floatRows(rnd, n, m), floatRows(rnd, m, p), floatRows(rnd, n, p)};
    assertSame(rowMatrixProduct(), data, new long[] {m, p}, 0, 1, n);
    assertSame(rowMatrixProduct(), data, new long[] {m, p}, 5, 1, 11); // rows 5 to 15 of c only
  }

  @Test
  void convolution() throws ExecutionException {
    Random rnd = new Random(3);
    int n = 1000;
    int taps = 7;
    Object[] data = {doubles(rnd, n + taps - 1), doubles(rnd, taps), doubles(rnd, n)};
    assertSame(Nests.convolution(), data, new long[] {taps}, 0, 1, n);
    assertSame(Nests.convolution(), data, new long[] {taps}, 999, -1, 1000);
  }

  @Test
  void nBodyStepCarriesTwoFloatsThroughSqrtAndDivision() throws ExecutionException {
    Random rnd = new Random(4);
    int n = 301;
    Object[] data = {floats(rnd, n), floats(rnd, n), floats(rnd, n), floats(rnd, n), floats(rnd, n)};
    for (int j = 0; j < n; j++) ((float[]) data[2])[j] = Math.abs(((float[]) data[2])[j]);
    assertSame(nBody(), data, new long[] {n, bits(0.01f), bits(1e-3f)}, 0, 1, n);
  }

  @Test
  void rowDotProductsBoundedByRowLengths() throws ExecutionException {
    Random rnd = new Random(5);
    int rows = 203;
    double[][] a = raggedRows(rnd, rows, 50);
    double[][] b = new double[rows][];
    for (int r = 0; r < rows; r++) b[r] = doubles(rnd, a[r].length + rnd.nextInt(3));
    assertSame(rowDots(), new Object[] {a, b, doubles(rnd, rows)}, new long[0], 0, 1, rows);
  }

  @Test
  void triangularLoopsUpAndDown() throws ExecutionException {
    Random rnd = new Random(6);
    int n = 130;
    Object[] data = {doubles(rnd, n * n), doubles(rnd, n), doubles(rnd, n), doubles(rnd, n)};
    assertSame(triangular(), data, new long[] {n}, 0, 1, n);
  }

  @Test
  void aPredicatedLoopRunsOnlyWhereItsConditionHolds() throws ExecutionException {
    Random rnd = new Random(7);
    int n = 517;
    int[] mask = new int[n];
    int[] len = new int[n];
    for (int i = 0; i < n; i++) {
      mask[i] = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt();
      // Where the mask is 0 the bound is meaningless, and the loop would read far beyond data.
      len[i] = mask[i] == 0 ? 1 << 28 : rnd.nextInt(5);
    }
    Object[] data = {mask, len, ints(rnd, 4 * n), ints(rnd, n), ints(rnd, n)};
    assertSame(predicated(), data, new long[0], 0, 1, n);
  }

  @Test
  void aRowReductionThenAMapOverTheRowsItWrites() throws ExecutionException {
    Random rnd = new Random(8);
    int rows = 150;
    Object[] data = {raggedRows(rnd, rows, 90), doubles(rnd, rows)};
    assertSame(normalizeRows(), data, new long[0], 0, 1, rows);
    assertSame(normalizeRows(), data, new long[0], 2, 3, 40); // every third row from row 2 on
  }

  @Test
  void columnSumsRunTheOuterLoopInOrderInsideEachColumn() throws ExecutionException {
    Random rnd = new Random(9);
    int rows = 77;
    int cols = 100;
    float[][] m = floatRows(rnd, rows, cols + 3); // rows longer than the loop reads
    assertSame(columnSums(), new Object[] {m, floats(rnd, cols + 5)}, new long[] {cols}, 0, 1, rows);
    assertSame(columnSums(), new Object[] {m, floats(rnd, cols)}, new long[] {cols}, rows - 1, -1, rows);
  }

  @Test
  void aStencilOverRowsLeavesTheBordersAlone() throws ExecutionException {
    Random rnd = new Random(10);
    int h = 41;
    int w = 67;
    assertSame(stencil(), new Object[] {floatRows(rnd, h, w), floatRows(rnd, h, w)}, new long[] {w}, 1, 1, h - 2);
  }

  @Test
  void threeParallelLoopsAreThreeDimensions() throws ExecutionException {
    Random rnd = new Random(11);
    int b = 3;
    int h = 17;
    int w = 33;
    Object[] data = {OpenClTestSupport.longs(rnd, b * h * w), OpenClTestSupport.longs(rnd, b * h * w)};
    assertSame(batch(), data, new long[] {h, w}, 0, 1, b);
  }

  /** Integer reductions of a nest ({@link Nests#rowSumReductions}) split over work-groups, exactly. */
  @Test
  void integerReductionsAcrossTheOuterLoopOfANest() throws ExecutionException {
    LoopTemplate t = rowSumReductions();
    Random rnd = new Random(12);
    // 300,001 rows need more than 4096 work-groups of 64, so each work item runs a chunk of them
    for (int[] shape : new int[][] {{70_001, 5}, {300_001, 1}}) {
      int rows = shape[0];
      int cols = shape[1];
      long[] accs = {rnd.nextInt(), 3, Integer.MIN_VALUE, rnd.nextInt()};
      assertTrue(ocl.supports(t, ExecutionOptions.EXACT));
      assertSameAsReference(ocl, t, new Object[] {ints(rnd, rows * cols), ints(rnd, rows)}, new long[] {cols}, accs, 0, 1, rows,
          ExecutionOptions.EXACT);
    }
  }

  @Test
  void aFloatingSumAcrossTheOuterLoopNeedsReassociationButOneInAnInnerLoopDoesNot() {
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop j = loop(1, ZERO, param(0), List.of(new Carried(Type.DOUBLE, Const.ofDouble(0),
        add(s, load(0, Type.DOUBLE, add(mul(I, param(0)), v(1)))))), List.of(), false);
    Node sum = new LoopOut(1, 0, Type.DOUBLE);
    Reduction total = new Reduction(0, Type.DOUBLE, add(new Acc(0, Type.DOUBLE), sum), ReduceOp.ADD, sum);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE), List.of(Type.INT), List.of(Type.DOUBLE), List.of(j), List.of(total),
        List.of(), false);
    assertFalse(ocl.supports(t, ExecutionOptions.EXACT));
    assertTrue(ocl.supports(t, new ExecutionOptions(true, false)));
    assertTrue(ocl.supports(rowDots(), ExecutionOptions.EXACT));
  }

  @Test
  void aNullRowFailsTheLaunchAndWritesNothing() {
    double[][] a = {{1, 2}, null, {3}};
    double[][] b = {{4, 5}, {6}, {7}};
    double[] out = {-1, -2, -3};
    Launch launch = new Launch(rowDots(), new Object[] {a, b, out}, new long[0], new long[0], 0, 1, 3);
    assertThrows(ExecutionException.class, () -> ocl.execute(launch, ExecutionOptions.EXACT));
    assertArrayEquals(new double[] {-1, -2, -3}, out);
  }
}

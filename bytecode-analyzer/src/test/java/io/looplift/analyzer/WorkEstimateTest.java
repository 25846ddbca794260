package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With {@code min.length} set, a nest reaches the pipeline only when the innermost iterations it will run
 * reach it, whatever its outer loop's length: small nests run as the original loops without a call.
 */
class WorkEstimateTest {
  private static final int MIN = 1000;
  private static Rewritten nests;

  @BeforeAll
  static void rewrite() throws Exception {
    nests = new Rewritten(NestShapes.class, MIN);
  }

  /** Whether running {@code name} on {@code args} submitted a nest; the results are Java's either way. */
  private static boolean submitted(String name, Object... args) throws Exception {
    Object[] plain = RewriteRoundTripTest.deepCopy(args);
    Object[] lifted = RewriteRoundTripTest.deepCopy(args);
    int before = InterpretingDispatcher.nests;
    Object expected = Rewritten.invoke(nests.original, name, plain);
    Object actual = Rewritten.invoke(nests.lifted, name, lifted);
    assertEquals(String.valueOf(expected), String.valueOf(actual), name);
    assertTrue(Arrays.deepEquals(plain, lifted), name + ": arrays differ");
    return InterpretingDispatcher.nests > before;
  }

  private static double[] doubles(int n) {
    Random r = new Random(n);
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = r.nextDouble();
    return d;
  }

  @Test
  void aMatrixProductCountsAllThreeLoops() throws Exception {
    // 9 * 9 * 9 = 729 innermost iterations; 11^3 = 1331
    assertEquals(false, submitted("matmul", doubles(81), doubles(81), new double[81], 9));
    assertEquals(true, submitted("matmul", doubles(121), doubles(121), new double[121], 11));
  }

  @Test
  void aTriangleCountsItsMiddleRow() throws Exception {
    // 40 rows of 1..40: 820 iterations; 50 rows: 1275
    assertEquals(false, submitted("lowerRowSums", doubles(1600), new double[40], 40));
    assertEquals(true, submitted("lowerRowSums", doubles(2500), new double[50], 50));
  }

  @Test
  void rowsCountTheirLengths() throws Exception {
    double[][] few = new double[11][];
    double[][] many = new double[100][];
    for (int i = 0; i < few.length; i++) few[i] = doubles(17);
    for (int i = 0; i < many.length; i++) many[i] = doubles(17);
    assertEquals(false, submitted("rowdots", few, doubles(17), new double[11]));
    assertEquals(true, submitted("rowdots", many, doubles(17), new double[100]));
  }

  @Test
  void clampedBoundsTakeTheLargerAndTheSmallerSide() throws Exception {
    // max(0, i - r) and min(n, i + r + 1) at the middle row: 2r + 1 columns when the window fits, n when not.
    assertEquals(false, submitted("clampedWindow", doubles(100), new double[100], 4)); // 100 * 9
    assertEquals(true, submitted("clampedWindow", doubles(100), new double[100], 5)); // 100 * 11
    assertEquals(false, submitted("clampedWindow", doubles(30), new double[30], 40)); // 30 * 30
    assertEquals(true, submitted("clampedWindow", doubles(40), new double[40], 50)); // 40 * 40
  }
}

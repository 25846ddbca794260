package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rewrites {@link NestShapes} as the agent would and runs each nest in the original and the rewritten class
 * on the same inputs (the rewritten one through the reference interpreter), requiring identical results and
 * arrays; checks which nests are offloaded whole, with which loops parallel, and which are not.
 */
class NestRoundTripTest {
  private static Rewritten nests;

  @BeforeAll
  static void rewrite() throws Exception {
    nests = new Rewritten(NestShapes.class);
  }

  private static double[] doubles(Random r, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = r.nextGaussian();
    return d;
  }

  private static float[] floats(Random r, int n) {
    float[] f = new float[n];
    for (int i = 0; i < n; i++) f[i] = r.nextFloat() * 4 - 2;
    return f;
  }

  private static double[][] matrix(Random r, int rows, int cols) {
    double[][] m = new double[rows][];
    for (int i = 0; i < rows; i++) m[i] = doubles(r, cols);
    return m;
  }

  static Stream<Object[]> offloaded() {
    Random r = new Random(7);
    int n = 13;
    return Stream.of(
        new Object[] {"matmul", List.of("i", "j"), new Object[] {doubles(r, n * n), doubles(r, n * n), new double[n * n], n}},
        new Object[] {"matmulRows", List.of("i"), new Object[] {matrix(r, n, n), matrix(r, n, 9), matrix(r, n, 9)}},
        new Object[] {"rowSumsDown", List.of("i"), new Object[] {doubles(r, 7 * 9), new double[7], 9}},
        new Object[] {"conv", List.of("i"), new Object[] {floats(r, 200), floats(r, 7), new float[200]}},
        new Object[] {"nbody", List.of("i"), new Object[] {floats(r, 50), floats(r, 50), new float[50], new float[50]}},
        new Object[] {"jacobi", List.of("y", "x"), new Object[] {floats(r, 12 * 9), new float[12 * 9], 12, 9}},
        new Object[] {"rowdots", List.of("i"), new Object[] {matrix(r, 11, 17), doubles(r, 17), new double[11]}},
        new Object[] {"axpyRows", List.of("r", "k"), new Object[] {0.5, doubles(r, 6), matrix(r, 9, 6)}},
        new Object[] {"lowerRowSums", List.of("i"), new Object[] {doubles(r, n * n), new double[n], n}},
        new Object[] {"normalizeRows", List.of("i"), new Object[] {matrix(r, 8, 5), }},
        new Object[] {"columnSums", List.of("j"), new Object[] {doubles(r, 10 * 6), new double[6], 10, 6}},
        new Object[] {"interleave", List.of(), new Object[] {doubles(r, 20), doubles(r, 20), new double[40]}},
        new Object[] {"strided", List.of(), new Object[] {doubles(r, 10), new double[40], 3, 4, 9}},
        new Object[] {"packStrided", List.of(), new Object[] {doubles(r, 10), new double[40], 3, 4}},
        new Object[] {"unpackPairs", List.of(), new Object[] {doubles(r, 30), new double[15], new double[15]}},
        new Object[] {"reversed", List.of(), new Object[] {doubles(r, 17), new double[17]}},
        new Object[] {"packAndCount", List.of(), new Object[] {doubles(r, 17), new double[17]}},
        new Object[] {"countDown", List.of(), new Object[] {doubles(r, 17), new double[17]}},
        new Object[] {"coltAssign", List.of(), new Object[] {new double[40], 2, 3, doubles(r, 12)}},
        new Object[] {"countDownLeft", List.of(), new Object[] {doubles(r, 9)}},
        new Object[] {"coltFill", List.of("row", "column"), new Object[] {new double[6 * 5], 6, 5, 5, 1, 0.25}},
        new Object[] {"preIncrement", List.of(), new Object[] {doubles(r, 9), new double[9]}},
        new Object[] {"scaleRows", List.of("y", "x"), new Object[] {floats(r, 7 * 5), new float[7 * 5], 7, 5}},
        new Object[] {"transpose", List.of("i", "j"), new Object[] {doubles(r, 6 * 4), new double[6 * 4], 6, 4}},
        new Object[] {"autocorrelation", List.of("lag"), new Object[] {doubles(r, 40), new double[9]}},
        new Object[] {"autocorrelation", List.of("lag"), new Object[] {doubles(r, 5), new double[9]}},
        new Object[] {"unrolledRows", List.of("r"), new Object[] {doubles(r, 7 * 10), doubles(r, 10), new double[7], 10}},
        new Object[] {"unrolledRows", List.of("r"), new Object[] {doubles(r, 7 * 11), doubles(r, 11), new double[7], 11}},
        new Object[] {"clampedWindow", List.of("i"), new Object[] {doubles(r, 30), new double[30], 3}},
        new Object[] {"unrolledWithTail", List.of("r"), new Object[] {doubles(r, 6 * 10), doubles(r, 10), new double[6], 10}},
        new Object[] {"unrolledWithTail", List.of("r"), new Object[] {doubles(r, 6 * 3), doubles(r, 3), new double[6], 3}},
        new Object[] {"unrolledWithTail", List.of("r"), new Object[] {doubles(r, 6 * 8), doubles(r, 8), new double[6], 8}},
        new Object[] {"packedCount", List.of(), new Object[] {doubles(r, 12), new double[12]}},
        new Object[] {"farApart", List.of("i"), new Object[] {doubles(r, 4), new double[6], 0, 3}},
        new Object[] {"farApart", List.of("i"),
            new Object[] {doubles(r, 4), new double[6], Integer.MAX_VALUE - 8, Integer.MIN_VALUE + 8}},
        new Object[] {"rowEnds", List.of("y"), new Object[] {doubles(r, 4 * 6), new double[4 * 6], new int[4], 6}},
        new Object[] {"runningRows", List.of("i"), new Object[] {doubles(r, 5 * 7), doubles(r, 7), new double[5]}},
        new Object[] {"runningRows", List.of("i"), new Object[] {doubles(r, 5), doubles(r, 1), new double[5]}},
        new Object[] {"runningOuter", List.of("i", "j"), new Object[] {doubles(r, 6), doubles(r, 4), new double[24]}},
        new Object[] {"stopsAt", List.of("i"), new Object[] {doubles(r, 8 * 5), new double[8], 5, 4, 1}},
        new Object[] {"stopsAt", List.of("i"), new Object[] {doubles(r, 8 * 5), new double[8], 5, -3, 0}},
        new Object[] {"clampedWindow", List.of("i"), new Object[] {doubles(r, 5), new double[5], 9}},
        new Object[] {"bandTimes", List.of("i"), new Object[] {doubles(r, 12 * 12), doubles(r, 12), new double[12], 2}},
        new Object[] {"blockSums", List.of("b"), new Object[] {doubles(r, 4 * 6 + 3), new double[7]}},
        new Object[] {"blockSums", List.of("b"), new Object[] {doubles(r, 4 * 6), new double[6]}});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("offloaded")
  void aNestRunsAsOneLaunchWithJavasResults(String name, List<String> parallel, Object[] args) throws Exception {
    LoopSite site = nests.site(name, null);
    assertNotNull(site, name + " not seen");
    assertTrue(site.accepted(), name + " rejected: " + site.reason());
    assertEquals(parallel, site.parallel(), name + " parallel loops");
    int before = InterpretingDispatcher.submitted;
    assertSameResults(name, args);
    assertTrue(InterpretingDispatcher.submitted > before, name + " never offloaded");
  }

  @Test
  void anInnerTestComparingBeforeItMovesItsVariableNeedsAConstantLimit() throws Exception {
    LoopSite site = nests.sites("rowSumsDownTo").get(0);
    assertFalse(site.accepted(), "a limit known only at run time");
    assertTrue(site.reason().contains("compares its variable before moving it"), site.reason());
    assertSameResults("rowSumsDownTo", new Object[] {doubles(new Random(5), 4 * 6), new double[4], 6, 1});
  }

  /** The sum an inner test computes wraps: the guard declines, and the original loop throws as Java's does. */
  @Test
  void anInnerTestWhoseSumWrapsRunsTheOriginalLoop() throws Exception {
    assertTrue(nests.site("offsetWraps", null).accepted(), nests.site("offsetWraps", null).reason());
    int before = InterpretingDispatcher.submitted;
    assertSameResults("offsetWraps", new Object[] {doubles(new Random(8), 30), new double[3], Integer.MAX_VALUE - 29});
    assertEquals(before, InterpretingDispatcher.submitted, "the guard declines every launch");
  }

  /**
   * A clamp one element too far: the launch is declined, and the original loop throws where Java's does, with
   * the same partial results. A clamp whose sum wraps has the same results too (the runtime's guard declines
   * it: {@code LaunchGuardTest}).
   */
  @Test
  void aClampedBoundThatLeavesTheArrayOrWrapsHasJavasResults() throws Exception {
    Random r = new Random(9);
    assertTrue(nests.site("clampedTooFar", null).accepted(), nests.site("clampedTooFar", null).reason());
    assertTrue(nests.site("clampWraps", null).accepted(), nests.site("clampWraps", null).reason());
    int before = InterpretingDispatcher.submitted;
    assertSameResults("clampedTooFar", new Object[] {doubles(r, 20), new double[20], 2});
    assertEquals(before, InterpretingDispatcher.submitted, "a launch that would throw is declined");
    assertSameResults("clampWraps", new Object[] {doubles(r, 10), new double[4], Integer.MAX_VALUE});
    assertSameResults("clampWraps", new Object[] {doubles(r, 10), new double[4], 4});
  }

  @Test
  void theNestIsOneSiteWhoseInnerLoopsAreNotReportedApart() {
    LoopSite matmul = nests.site("matmul", null);
    assertEquals("nest", matmul.kind());
    assertEquals(3, matmul.depth());
    assertEquals(1, nests.sites("matmul").size(), "one site for the whole nest: " + nests.sites("matmul"));
    assertEquals(2, nests.site("conv", null).depth());
    assertEquals("map", nests.site("interleave", null).kind());
  }

  @Test
  void aSecondIndexThatDoesNotMoveByTheSameAmountEveryIterationIsNotOffloaded() throws Exception {
    Random r = new Random(4);
    assertFalse(nests.site("positives", null).accepted(), "a compaction");
    assertSameResults("positives", new Object[] {doubles(r, 12), new double[12]});
  }

  /** Strides that send the second index out of range part-way: the same exception and partial writes. */
  @Test
  void aSecondIndexThatRunsOutOfRangeThrowsAsJavaDoes() throws Exception {
    Random r = new Random(6);
    assertSameResults("coltAssign", new Object[] {new double[20], 5, 2, doubles(r, 12)});
    assertSameResults("countDownLeft", new Object[] {new double[0]});
    assertSameResults("coltFill", new Object[] {new double[6 * 5], 6, 5, 1, 6, 0.5});
    assertSameResults("coltFill", new Object[] {new double[6 * 5], 6, 5, 6, 2, 0.5});
    assertSameResults("packStrided", new Object[] {doubles(r, 10), new double[12], 9, -1});
    assertSameResults("packStrided", new Object[] {doubles(r, 10), new double[12], 3, 2});
  }

  @Test
  void aDependenceCarriedByTheOuterLoopIsNeverOneLaunch() throws Exception {
    List<LoopSite> sites = nests.sites("prefixRows");
    assertFalse(sites.get(0).accepted(), "the outer loop: " + sites.get(0));
    assertTrue(sites.get(0).reason().contains("another iteration writes"), sites.get(0).reason());
    Random r = new Random(3);
    assertSameResults("prefixRows", new Object[] {matrix(r, 6, 5)});
  }

  @Test
  void aValueReadBeforeAnInnerLoopThatChangesItIsNotOffloadedAsOne() throws Exception {
    LoopSite outer = nests.sites("staleValue").get(0);
    assertFalse(outer.accepted());
    assertTrue(outer.reason().contains("read before an inner loop"), outer.reason());
    Random r = new Random(5);
    assertSameResults("staleValue", new Object[] {doubles(r, 8), doubles(r, 5), new double[8]});
  }

  @Test
  void aTriangleThatRunsOutOfRangeThrowsAsJavaDoes() throws Exception {
    assertTrue(nests.site("triangleOutOfRange", null).accepted());
    Random r = new Random(9);
    int n = 6;
    Object[] args = {doubles(r, n * n), new double[n], n};
    Object[] plain = RewriteRoundTripTest.deepCopy(args);
    Object[] lifted = RewriteRoundTripTest.deepCopy(args);
    Object expected = Rewritten.invoke(nests.original, "triangleOutOfRange", plain);
    Object actual = Rewritten.invoke(nests.lifted, "triangleOutOfRange", lifted);
    assertEquals(ArrayIndexOutOfBoundsException.class.getName(), expected);
    assertEquals(expected, actual);
    assertTrue(Arrays.deepEquals(plain, lifted), "the same partial writes");
  }

  private static void assertSameResults(String name, Object[] args) throws Exception {
    Object[] plain = RewriteRoundTripTest.deepCopy(args);
    Object[] lifted = RewriteRoundTripTest.deepCopy(args);
    Object expected = Rewritten.invoke(nests.original, name, plain);
    Object actual = Rewritten.invoke(nests.lifted, name, lifted);
    assertEquals(String.valueOf(expected), String.valueOf(actual), name);
    assertTrue(Arrays.deepEquals(plain, lifted), name + ": arrays differ");
  }
}

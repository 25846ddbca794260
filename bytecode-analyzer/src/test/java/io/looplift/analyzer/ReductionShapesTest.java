package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every reduction shape of {@link ReductionShapes}, per type: recognized as a reduction, with the expected
 * parallel operator (or none, where Java's order must be kept), and — computed split into chunks the way
 * the parallel executors do — bit-identical to the plain loop on data with NaN, ±0.0, infinities and
 * integer overflow.
 */
class ReductionShapesTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(ReductionShapes.class);
  }

  static Stream<Object[]> cases() {
    Random r = new Random(3);
    int n = 2000;
    int[] ints = new int[n];
    long[] longs = new long[n];
    float[] floats = new float[n];
    double[] doubles = new double[n];
    for (int i = 0; i < n; i++) {
      ints[i] = i % 97 == 0 ? Integer.MIN_VALUE + i : i % 89 == 0 ? Integer.MAX_VALUE - i : r.nextInt();
      longs[i] = r.nextLong();
      floats[i] = (float) r.nextGaussian();
      doubles[i] = r.nextGaussian();
    }
    float[] special = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, -0.0f};
    for (int k = 0; k < special.length; k++) {
      floats[300 * k + 7] = special[k];
      doubles[300 * k + 11] = special[k];
    }
    float[] signedZeros = new float[n]; // ties between -0.0 and 0.0: which one wins is order-sensitive
    for (int i = 0; i < n; i++) signedZeros[i] = i % 3 == 0 ? -0.0f : i % 3 == 1 ? 0.0f : 5f;
    float[] noNaN = floats.clone();
    noNaN[7] = 1.5f;
    return Stream.of(
        c("intSum", ReduceOp.ADD, ints), c("intSumLong", ReduceOp.ADD, ints), c("intDiff", ReduceOp.ADD, ints),
        c("intProduct", ReduceOp.MUL, ints), c("intAnd", ReduceOp.AND, ints), c("intOr", ReduceOp.OR, ints),
        c("intXor", ReduceOp.XOR, ints), c("intMin", ReduceOp.MIN, ints), c("intMax", ReduceOp.MAX, ints),
        c("intIfLess", ReduceOp.SELECT_LT, ints), c("intIfGreaterMirrored", ReduceOp.SELECT_GT, ints),
        c("intCount", ReduceOp.ADD, ints), c("intCondSum", ReduceOp.ADD, ints),
        c("longSumOfSquares", ReduceOp.ADD, ints), c("longMax", ReduceOp.SELECT_GE, longs),
        c("longXorShift", ReduceOp.XOR, longs), c("floatMin", ReduceOp.MIN, floats),
        c("floatMax", ReduceOp.MAX, floats), c("floatIfLess", ReduceOp.SELECT_LT, floats),
        c("floatIfLess", ReduceOp.SELECT_LT, signedZeros), c("floatIfLessEq", ReduceOp.SELECT_LE, signedZeros),
        c("floatIfGreater", ReduceOp.SELECT_GT, floats), c("floatIfGreaterMirrored", ReduceOp.SELECT_GT, noNaN),
        c("floatSum", ReduceOp.ADD, floats), c("doubleProduct", ReduceOp.MUL, doubles),
        c("doubleMax", ReduceOp.MAX, doubles), c("doubleCount", ReduceOp.ADD, doubles),
        c("meanVariance", ReduceOp.ADD, doubles), c("several", ReduceOp.MIN, ints),
        c("reversedSum", ReduceOp.ADD, ints), new Object[] {"mapThenReduce", ReduceOp.ADD, new Object[] {ints, new int[n]}});
  }

  private static Object[] c(String name, ReduceOp op, Object data) {
    return new Object[] {name, op, new Object[] {data}};
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reductionIsRecognizedAndExact(String name, ReduceOp op, Object[] args) throws Exception {
    LoopSite site = shapes.site(name, "reduce");
    assertTrue(site != null && site.accepted(), () -> name + ": " + site);
    assertEquals("reduce", site.kind());
    Reduction first = site.template().reductions().get(0);
    assertEquals(op, first.op(), name + " update " + first.update());
    int before = InterpretingDispatcher.split;
    Object expected = Rewritten.invoke(shapes.original, name, RewriteRoundTripTest.deepCopy(args));
    Object actual = Rewritten.invoke(shapes.lifted, name, RewriteRoundTripTest.deepCopy(args));
    assertEquals(String.valueOf(expected), String.valueOf(actual), name);
    boolean splittable = site.template().isParallel(false);
    assertEquals(!op.reassociates(first.type()), splittable, name + " splittable");
    if (splittable) assertTrue(InterpretingDispatcher.split > before, name + " did not run split");
  }
}

package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rewrites {@link Shapes} as the agent would, runs each method in the original and the rewritten class on
 * the same inputs (through a test bridge that interprets the IR), and requires identical results and
 * identical array contents afterwards.
 */
class RewriteRoundTripTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(Shapes.class);
  }

  static Stream<Object[]> cases() {
    Random r = new Random(42);
    int n = 1000;
    Supplier<double[]> doubles = () -> {
      double[] d = new double[n];
      for (int i = 0; i < n; i++) d[i] = r.nextGaussian() * 3;
      d[5] = Double.NaN;
      d[6] = -0.0;
      d[7] = Double.POSITIVE_INFINITY;
      return d;
    };
    Supplier<float[]> floats = () -> {
      float[] f = new float[n];
      for (int i = 0; i < n; i++) f[i] = r.nextFloat();
      return f;
    };
    Supplier<int[]> ints = () -> {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) a[i] = r.nextInt();
      return a;
    };
    byte[] bytes = new byte[n];
    r.nextBytes(bytes);
    double[][] m = new double[7][];
    for (int k = 0; k < m.length; k++) m[k] = doubles.get();
    float[] withNaN = floats.get();
    withNaN[3] = Float.NaN;
    return Stream.of(
        new Object[] {"map", "map", new Object[] {doubles.get(), new double[n]}},
        new Object[] {"select", "map", new Object[] {floats.get(), new float[n], 0.5f}},
        new Object[] {"reversed", "map", new Object[] {ints.get(), new int[n]}},
        new Object[] {"step2", "map", new Object[] {bytes, new short[n], n}},
        new Object[] {"sumInt", "reduce", new Object[] {ints.get()}},
        new Object[] {"variance", "reduce", new Object[] {doubles.get()}},
        new Object[] {"minmax", "reduce", new Object[] {withNaN}},
        new Object[] {"argmax", "argmax", new Object[] {doubles.get()}},
        new Object[] {"prefix", "scan", new Object[] {doubles.get(), new double[n]}},
        new Object[] {"rows", "map", new Object[] {m, 0.5}},
        new Object[] {"chain", "map", new Object[] {floats.get(), floats.get(), new float[n]}},
        new Object[] {"postDecrement", "map", new Object[] {ints.get(), new int[n]}},
        new Object[] {"postIncrementSum", "reduce", new Object[] {ints.get(), 3}},
        new Object[] {"postDecrementToMinValue", "reduce", new Object[] {ints.get(), Integer.MIN_VALUE + 10}},
        new Object[] {"unrolledByFour", "map", new Object[] {floats.get(), new float[n + 3]}},
        new Object[] {"unrolledByFour", "map", new Object[] {new float[n + 3], new float[n + 3]}},
        new Object[] {"lagged", "reduce", new Object[] {ints.get(), 7}},
        new Object[] {"offsetCountDown", "map", new Object[] {ints.get(), new int[n]}},
        new Object[] {"offsetToMaxValue", "reduce", new Object[] {ints.get(), Integer.MAX_VALUE - (n - 1)}},
        new Object[] {"minLimit", "map", new Object[] {floats.get(), new float[n], n / 3}},
        new Object[] {"minLimit", "map", new Object[] {floats.get(), new float[n], n * 2}},
        new Object[] {"gathered", "map", new Object[] {doubles.get(), permutation(r, n), new double[n]}},
        new Object[] {"gatheredSum", "reduce", new Object[] {doubles.get(), codes(r, n, 64)}},
        new Object[] {"gatheredOneBased", "map", new Object[] {floats.get(), oneBased(permutation(r, n)), new float[n]}},
        new Object[] {"gatheredFromWritten", null, new Object[] {floats.get(), permutation(r, n)}},
        new Object[] {"gatheredByWritten", null, new Object[] {floats.get(), permutation(r, n), new float[n]}},
        new Object[] {"scattered", null, new Object[] {floats.get(), permutation(r, n), new float[n]}},
        new Object[] {"carried", null, new Object[] {floats.get()}},
        new Object[] {"earlyExit", null, new Object[] {ints.get()}},
        new Object[] {"throwsPartWay", "map", new Object[] {ints.get(), new int[n + 1]}},
        new Object[] {"throwsPartWay", "map", new Object[] {ints.get(), new int[n]}},
        new Object[] {"fieldLoop", "map", new Object[] {100}},
        new Object[] {"conversions", "map", new Object[] {doubles.get(), new int[n], new long[n], new char[n]}});
  }

  @Test
  void aGatherIsRejectedWhenTheLoopWritesEitherArrayAndAScatterAlways() {
    assertTrue(shapes.site("gatheredFromWritten", null).reason().contains("reads an array the loop writes at indices"),
        shapes.site("gatheredFromWritten", null).reason());
    assertTrue(shapes.site("gatheredByWritten", null).reason().contains("indices loaded from an array the loop writes"),
        shapes.site("gatheredByWritten", null).reason());
    assertTrue(shapes.site("scattered", null).reason().contains("writes an array at an index that is not affine"),
        shapes.site("scattered", null).reason());
  }

  /**
   * A loop that goes on from where the one before it stopped ({@code for (; i < n; i++)}) is entered by that
   * one's exit: the first one leaves, offloaded or timed, through the second one's preamble. (Its exit once
   * jumped to a label the timed copy did not know, and the whole class ran unchanged.)
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"halves", "unrolledByFour"})
  void aLoopThatGoesOnFromWhereTheOneBeforeStoppedIsOffloadedAfterIt(String name) throws Exception {
    List<LoopSite> sites = shapes.sites(name);
    assertEquals(2, sites.size());
    assertTrue(sites.stream().allMatch(LoopSite::accepted), sites.toString());
    float[] a = new float[1003];
    for (int i = 0; i < a.length; i++) a[i] = i * 0.5f;
    float[] plainOut = new float[a.length];
    float[] liftedOut = new float[a.length];
    int before = InterpretingDispatcher.submitted;
    Object expected = Rewritten.invoke(shapes.original, name, new Object[] {a.clone(), plainOut});
    Object actual = Rewritten.invoke(shapes.lifted, name, new Object[] {a.clone(), liftedOut});
    assertEquals(expected, actual);
    assertTrue(Arrays.equals(plainOut, liftedOut));
    assertEquals(before + 2, InterpretingDispatcher.submitted, "both loops launched");
    float[] timedOut = new float[a.length];
    int reported = InterpretingDispatcher.RAN.size();
    InterpretingDispatcher.timeOriginals = true;
    try {
      assertEquals(expected, Rewritten.invoke(shapes.lifted, name, new Object[] {a.clone(), timedOut}), "timed");
    } finally {
      InterpretingDispatcher.timeOriginals = false;
    }
    assertTrue(Arrays.equals(plainOut, timedOut), "timed");
    List<Integer> ids = sites.stream().map(shapes::id).toList();
    assertEquals(ids, InterpretingDispatcher.RAN.subList(reported, InterpretingDispatcher.RAN.size()),
        "each timed run reports its end");
  }

  private static int[] permutation(Random r, int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int k = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[k];
      p[k] = t;
    }
    return p;
  }

  private static int[] oneBased(int[] p) {
    for (int i = 0; i < p.length; i++) p[i]++;
    return p;
  }

  private static int[] codes(Random r, int n, int bound) {
    int[] c = new int[n];
    for (int i = 0; i < n; i++) c[i] = r.nextInt(bound);
    return c;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rewrittenLoopComputesTheSame(String name, String kind, Object[] args) throws Exception {
    LoopSite site = shapes.site(name, null);
    assertNotNull(site, name + " not seen");
    if (kind == null) {
      assertTrue(!site.accepted(), name + " must be rejected");
    } else {
      assertTrue(site.accepted(), name + " rejected: " + site.reason());
      assertEquals(kind, site.kind());
    }
    Object[] plainArgs = deepCopy(args);
    Object[] liftedArgs = deepCopy(args);
    int before = InterpretingDispatcher.submitted;
    Object expected = Rewritten.invoke(shapes.original, name, plainArgs);
    Object actual = Rewritten.invoke(shapes.lifted, name, liftedArgs);
    assertEquals(String.valueOf(expected), String.valueOf(actual));
    for (int k = 0; k < args.length; k++) assertTrue(Arrays.deepEquals(new Object[] {plainArgs[k]}, new Object[] {liftedArgs[k]}), "argument " + k);
    // throwsPartWay throws before its launch, postDecrementToMinValue and offsetToMaxValue in their preambles
    // (their limits overflow).
    if (kind != null && !Set.of("throwsPartWay", "postDecrementToMinValue", "offsetToMaxValue").contains(name)) {
      assertTrue(InterpretingDispatcher.submitted > before, "never offloaded");
    }
    // Timed runs go through a copy of the loop (TimedCopy): the same results, the same exception.
    Object[] timedArgs = deepCopy(args);
    InterpretingDispatcher.timeOriginals = true;
    try {
      assertEquals(String.valueOf(expected), String.valueOf(Rewritten.invoke(shapes.lifted, name, timedArgs)), "timed");
    } finally {
      InterpretingDispatcher.timeOriginals = false;
    }
    for (int k = 0; k < args.length; k++) assertTrue(Arrays.deepEquals(new Object[] {plainArgs[k]}, new Object[] {timedArgs[k]}), "timed, argument " + k);
  }

  static Object[] deepCopy(Object[] args) {
    Object[] copy = new Object[args.length];
    for (int k = 0; k < args.length; k++) copy[k] = copyValue(args[k]);
    return copy;
  }

  private static Object copyValue(Object o) {
    if (o instanceof Object[] rows) {
      Object[] c = Arrays.copyOf(rows, rows.length);
      for (int k = 0; k < c.length; k++) c[k] = copyValue(c[k]);
      return c;
    }
    if (o != null && o.getClass().isArray()) {
      int len = java.lang.reflect.Array.getLength(o);
      Object c = java.lang.reflect.Array.newInstance(o.getClass().getComponentType(), len);
      System.arraycopy(o, 0, c, 0, len);
      return c;
    }
    return o;
  }
}

package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.RegionSite;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rewrites {@link RegionShapes} and checks which methods get a region fast path, that the fast path (temporaries
 * never allocated by the program) and the original code it falls back to both compute what the original
 * method computes, with the same exceptions and partial writes.
 */
class RegionRewriteTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(RegionShapes.class);
  }

  @AfterEach
  void accept() {
    InterpretingDispatcher.declineRegions = false;
  }

  /** Method, arguments, expected number of temporaries (0: no region), whether the fast path commits. */
  static Stream<Object[]> cases() {
    Random r = new Random(7);
    int n = 2000;
    float[][] f = new float[4][n];
    for (float[] x : f) for (int i = 0; i < n; i++) x[i] = r.nextFloat() * 10 - 5;
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = r.nextGaussian();
    int[] ints = new int[n];
    for (int i = 0; i < n; i++) ints[i] = r.nextInt();
    return Stream.of(
        new Object[] {"chain4", new Object[] {f[0], f[1], f[2], new float[n]}, 3, true},
        new Object[] {"between", new Object[] {d, new double[n], 5}, 2, true},
        new Object[] {"escapes", new Object[] {f[0], new float[n]}, 0, false},
        new Object[] {"limitTemp", new Object[] {f[0], new float[n]}, 0, false},
        new Object[] {"negative", new Object[] {ints.clone(), 100}, 1, true},
        new Object[] {"negative", new Object[] {ints.clone(), -1}, 1, false},
        new Object[] {"divides", new Object[] {ints.clone(), new int[n], 3}, 1, true},
        new Object[] {"divides", new Object[] {ints.clone(), new int[n], 0}, 1, false},
        new Object[] {"bounds", new Object[] {ints.clone(), new int[n]}, 1, false},
        new Object[] {"narrow", new Object[] {ints.clone(), new long[n]}, 4, true});
  }

  @ParameterizedTest(name = "{0} {2} {3}")
  @MethodSource("cases")
  void fastPathAndFallbackComputeTheSame(String name, Object[] args, int temporaries, boolean commits) throws Exception {
    List<RegionSite> regions = InterpretingDispatcher.REGIONS.stream()
        .filter(x -> x.className().equals(RegionShapes.class.getName()) && x.method().equals(name)).toList();
    if (temporaries == 0) {
      assertTrue(regions.isEmpty(), name + " must not be a region");
    } else {
      assertEquals(1, regions.size(), name + " regions");
      assertEquals(temporaries, regions.get(0).temporaries(), name + " temporaries");
      assertTrue(regions.get(0).siteIds().size() >= 2);
    }
    for (boolean decline : new boolean[] {false, true}) {
      InterpretingDispatcher.declineRegions = decline;
      Object[] plainArgs = RewriteRoundTripTest.deepCopy(args);
      Object[] liftedArgs = RewriteRoundTripTest.deepCopy(args);
      int committed = InterpretingDispatcher.regionsCommitted;
      int aborted = InterpretingDispatcher.regionsAborted;
      int syncs = InterpretingDispatcher.syncs;
      Object expected = Rewritten.invoke(shapes.original, name, plainArgs);
      Object actual = Rewritten.invoke(shapes.lifted, name, liftedArgs);
      assertEquals(String.valueOf(expected), String.valueOf(actual), name + (decline ? " declined" : ""));
      for (int k = 0; k < args.length; k++) {
        assertTrue(Arrays.deepEquals(new Object[] {plainArgs[k]}, new Object[] {liftedArgs[k]}), "argument " + k);
      }
      if (temporaries > 0 && commits && !decline) {
        assertEquals(committed + 1, InterpretingDispatcher.regionsCommitted, name + " fast path");
        // The region leaves its work pending at its last loop's exit, whose read point syncs it.
        assertTrue(InterpretingDispatcher.syncs > syncs, name + " synced after the region");
      } else {
        assertEquals(committed, InterpretingDispatcher.regionsCommitted, name + " must not commit");
      }
      if (temporaries > 0 && decline) assertTrue(InterpretingDispatcher.regionsAborted > aborted, name + " declined");
    }
  }
}

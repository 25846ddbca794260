package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where rewritten code syncs: before the first instruction after an offloaded loop that could observe its
 * results, on every path, and not on a path that only goes on to the next offloaded loop.
 */
class ReadPointTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(Shapes.class);
  }

  private static double[] ramp(int n) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++) a[i] = i * 0.75;
    return a;
  }

  /** Runs {@code method} original and rewritten over copies of {@code args}; returns the rewritten run's syncs. */
  private static int syncsOf(String method, Object... args) throws Exception {
    Object[] plain = args.clone();
    Object[] lifted = args.clone();
    for (int k = 0; k < args.length; k++) {
      if (args[k] instanceof double[] d) {
        plain[k] = d.clone();
        lifted[k] = d.clone();
      }
    }
    Object expected = Rewritten.invoke(shapes.original, method, plain);
    int before = InterpretingDispatcher.syncs;
    int submittedBefore = InterpretingDispatcher.submitted;
    Object actual = Rewritten.invoke(shapes.lifted, method, lifted);
    assertTrue(InterpretingDispatcher.submitted > submittedBefore, method + "'s loops ran offloaded");
    assertEquals(expected, actual);
    assertTrue(Arrays.deepEquals(plain, lifted), "the same arrays");
    return InterpretingDispatcher.syncs - before;
  }

  @Test
  void timeStepsQueueTogetherUntilTheLoopAroundThemEnds() throws Exception {
    assertEquals(1, syncsOf("timeSteps", ramp(300), new double[300], 6), "one sync, after the steps");
  }

  @Test
  void aReadInEveryStepSyncsEveryStep() throws Exception {
    assertEquals(6, syncsOf("timeStepsRead", ramp(300), new double[300], 6));
  }
}

package io.looplift.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Loops the agent recognizes and rewrites but, with its default options, never offloads: inner loops of
 * {@code size} iterations inside outer loops that must stay sequential, over 2^20 elements in all, and a
 * method whose loop is always too short. Run without and with the agent (see {@link OverheadRunner}
 * {@code --defaults}): the agent's cost is the ratio of the scores, which should be 1.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
// A young generation large enough that set-up allocates without a young collection, in both forks: see setUp.
@Fork(value = 2, jvmArgsPrepend = "-Xmn512m")
public class DeclinedLoopsBench {
  private static final int TOTAL = 1 << 20;

  @Param({"4", "16", "64", "512", "4096"})
  int size;

  float[] x;
  float[] acc;
  float[][] rows;

  /** Fills the inputs with fixed values in [0, 1) and has them compacted. */
  @Setup
  public void setUp() {
    Random rnd = new Random(42);
    x = new float[TOTAL];
    for (int i = 0; i < TOTAL; i++) x[i] = rnd.nextFloat();
    acc = new float[size];
    rows = new float[TOTAL / size][];
    for (int r = 0; r < rows.length; r++) {
      rows[r] = new float[size];
      for (int c = 0; c < size; c++) rows[r][c] = rnd.nextFloat();
    }
    // Compacted into the old generation now, in allocation order. A young collection while the rows are made
    // copies most of them to descending addresses, and when one comes depends on what the JVM allocated before
    // (the agent allocates while classes load): in plain Java with G1 and 7 MB allocated first, 93% of the rows
    // of 4 lay below the one before, and an operation took 3.0 ms instead of 1.1; with this young generation
    // (see @Fork) no collection comes and it took 1.12 to 1.17 ms whatever was allocated first.
    System.gc();
  }

  /** Blocks of {@code size} elements folded into one: the outer loop is not counted (its test is i + w <= n). */
  @Benchmark
  public float blocks() {
    blocks(acc, x);
    return acc[size - 1];
  }

  /** Each row from the one before it: the outer loop carries a dependence, the inner one is a short map. */
  @Benchmark
  public float rowRecurrence() {
    rowRecurrence(rows);
    return rows[rows.length - 1][size - 1];
  }

  /** A method whose map loop is always shorter than min.length, called once per row. */
  @Benchmark
  public float shortMaps() {
    float s = 0;
    for (float[] r : rows) s += scaleInPlace(r, 0.999f);
    return s;
  }

  static void blocks(float[] acc, float[] x) {
    int w = acc.length;
    for (int i = 0; i + w <= x.length; i += w) {
      for (int j = 0; j < w; j++) acc[j] = acc[j] * 0.5f + x[i + j];
    }
  }

  static void rowRecurrence(float[][] m) {
    for (int r = 1; r < m.length; r++) {
      float[] prev = m[r - 1];
      float[] cur = m[r];
      for (int c = 0; c < cur.length; c++) cur[c] = prev[c] * 0.25f + cur[c] * 0.75f;
    }
  }

  static float scaleInPlace(float[] a, float k) {
    for (int i = 0; i < a.length; i++) a[i] = a[i] * k;
    return a[0];
  }
}

package io.looplift.analyzer;

/** Loops inside loops that are not rewritten themselves, as the test subject of {@link LoopPathTest}. */
public final class InnerLoops {
  private InnerLoops() {}

  /** Blocks of {@code acc.length} elements folded into {@code acc}: the outer loop is not counted. */
  public static float blocks(float[] acc, float[] x) {
    int w = acc.length;
    for (int i = 0; i + w <= x.length; i += w) {
      for (int j = 0; j < w; j++) acc[j] = acc[j] * 0.5f + x[i + j];
    }
    return acc[0];
  }

  /** A loop that ends the method: its last instruction is the jump back to its test. */
  public static int endsTheMethod(int[] a) {
    int i = 0;
    while (true) {
      if (i >= a.length) return i;
      a[i] = a[i] * 3 + 1;
      i++;
    }
  }

  /** A map whose input may be null: the exception's message names the variable. */
  public static void plusOne(double[] in, double[] out, int n) {
    for (int i = 0; i < n; i++) out[i] = in[i] + 1;
  }
}

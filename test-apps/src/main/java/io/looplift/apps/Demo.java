package io.looplift.apps;

import java.util.Random;

/**
 * A short tour for the README's first command: a few array loops LoopLift offloads (two maps, three
 * reductions) and one it must leave alone (a running sum), with their results printed in full precision.
 * It is an ordinary program; run it with and without the agent and compare.
 */
public final class Demo {
  private Demo() {}

  static void scale(float[] x, float k, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = k * x[i] + 1f;
  }

  static void blend(double[] x, double[] y, double w, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = w * x[i] + (1 - w) * Math.sqrt(y[i]);
  }

  static double sum(double[] x) {
    double s = 0;
    for (int i = 0; i < x.length; i++) s += x[i];
    return s;
  }

  static float max(float[] x) {
    float m = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < x.length; i++) m = Math.max(m, x[i]);
    return m;
  }

  static long countBelow(int[] v, int limit) {
    long count = 0;
    for (int i = 0; i < v.length; i++) {
      if (v[i] < limit) count++;
    }
    return count;
  }

  /** Each element depends on the one before: LoopLift reports it as rejected and leaves it alone. */
  static void runningSum(long[] v) {
    for (int i = 1; i < v.length; i++) v[i] += v[i - 1];
  }

  public static void main(String[] args) {
    int n = 1 << 20;
    Random rnd = new Random(2024);
    float[] x = new float[n];
    double[] a = new double[n];
    double[] b = new double[n];
    int[] v = new int[n];
    long[] running = new long[n];
    for (int i = 0; i < n; i++) {
      x[i] = rnd.nextFloat();
      a[i] = rnd.nextDouble();
      b[i] = rnd.nextDouble();
      v[i] = rnd.nextInt(1000);
      running[i] = v[i];
    }
    float[] y = new float[n];
    double[] out = new double[n];
    System.out.println("LoopLift demo over " + n + " elements");
    for (int round = 1; round <= 3; round++) {
      scale(x, 0.5f * round, y);
      blend(a, b, 0.25 * round, out);
      System.out.println("round " + round + ": y[n-1] = " + y[n - 1] + ", max(y) = " + max(y)
          + ", sum(out) = " + sum(out) + ", out[12345] = " + out[12345]);
    }
    System.out.println("values below 100: " + countBelow(v, 100));
    runningSum(running);
    System.out.println("running sum: " + running[n - 1]);
  }
}

package io.looplift.apps;

import java.util.Random;

/**
 * The project's acceptance smoke program ({@code ../shared/checks/Smoke.java}, run by
 * {@code agent-smoke.sh}), kept here as a test program so that the end-to-end tests run it too: two maps,
 * two integer reductions and a carried dependency, three rounds over 2^20 elements.
 */
public class Smoke {
  static void scale(float[] a, float k, float[] out) { for (int i = 0; i < a.length; i++) out[i] = a[i] * k + 1f; }
  static void blend(double[] x, double[] y, double w, double[] out) { for (int i = 0; i < x.length; i++) out[i] = w * x[i] + (1 - w) * Math.sqrt(y[i]); }
  static long total(int[] v) { long s = 0; for (int i = 0; i < v.length; i++) s += v[i]; return s; }
  static int norm2(int[] v) { int s = 0; for (int i = 0; i < v.length; i++) s += v[i] * v[i]; return s; }
  static void carried(float[] a) { for (int i = 1; i < a.length; i++) a[i] += a[i - 1]; }

  public static void main(String[] args) {
    Random r = new Random(7);
    int n = 1 << 20;
    float[] a = new float[n], out = new float[n];
    double[] x = new double[n], y = new double[n], o2 = new double[n];
    int[] v = new int[n];
    for (int i = 0; i < n; i++) { a[i] = r.nextFloat(); x[i] = r.nextDouble(); y[i] = r.nextDouble(); v[i] = r.nextInt(1000); }
    for (int round = 0; round < 3; round++) {
      scale(a, 1.5f + round, out);
      blend(x, y, 0.25, o2);
      float[] c = a.clone(); carried(c);
      System.out.println(round + " " + Float.floatToRawIntBits(out[123]) + " " + Float.floatToRawIntBits(out[n - 1])
          + " " + Double.doubleToRawLongBits(o2[999]) + " " + total(v) + " " + norm2(v) + " " + Float.floatToRawIntBits(c[n - 1]));
    }
  }
}

package io.looplift.apps;

import java.util.Random;

/**
 * Loop sequences the pipeline compiles as a whole, run for several rounds: a chain whose temporary arrays
 * die with the method, two loops over one range, a temporary read one element ahead (no fusion), and a
 * chain that reads past its temporary's end on the last round. Deterministic: fixed seed, results printed
 * as exact bits.
 */
public final class Pipelines {
  private static final int N = 1 << 18;

  /** Smoothstep between per-element bounds: three temporaries that die with the method. */
  static void smoothstep(float[] x, float[] lo, float[] hi, float[] out) {
    int n = x.length;
    float[] span = new float[n];
    float[] t = new float[n];
    for (int i = 0; i < n; i++) span[i] = hi[i] - lo[i];
    for (int i = 0; i < n; i++) t[i] = (x[i] - lo[i]) / span[i];
    float[] c = new float[n];
    for (int i = 0; i < n; i++) c[i] = Math.min(1f, Math.max(0f, t[i]));
    for (int i = 0; i < n; i++) out[i] = c[i] * c[i] * (3f - 2f * c[i]);
  }

  /** Two loops over one range, no temporary: both arrays are the caller's. */
  static void affinePair(double[] x, double a, double b, double[] y, double[] z) {
    for (int i = 0; i < x.length; i++) y[i] = a * x[i] + b;
    for (int i = 0; i < x.length; i++) z[i] = y[i] * y[i] - x[i];
  }

  /** The second loop reads the temporary one element ahead: the loops cannot fuse. */
  static void forwardDifference(double[] x, double[] d) {
    int n = x.length;
    double[] s = new double[n];
    for (int i = 0; i < n; i++) s[i] = x[i] * 0.5;
    for (int i = 0; i < n - 1; i++) d[i] = s[i + 1] - s[i];
  }

  /** Reads {@code shift} elements into the temporary: out of bounds for any shift but 0. */
  static void shifted(int[] x, int shift, int[] y) {
    int[] t = new int[x.length];
    for (int i = 0; i < x.length; i++) t[i] = x[i] * 3 + 1;
    for (int i = 0; i < y.length; i++) y[i] = t[i + shift] ^ x[i];
  }

  public static void main(String[] args) {
    Random r = new Random(11);
    float[] x = new float[N];
    float[] lo = new float[N];
    float[] hi = new float[N];
    double[] dx = new double[N];
    int[] ix = new int[N];
    for (int i = 0; i < N; i++) {
      lo[i] = r.nextFloat();
      hi[i] = lo[i] + 0.5f + r.nextFloat();
      x[i] = r.nextFloat() * 2;
      dx[i] = r.nextGaussian();
      ix[i] = r.nextInt();
    }
    float[] out = new float[N];
    double[] y = new double[N];
    double[] z = new double[N];
    double[] d = new double[N];
    int[] iy = new int[N];
    for (int round = 0; round < 4; round++) {
      smoothstep(x, lo, hi, out);
      affinePair(dx, 1.5 + round, -0.25, y, z);
      forwardDifference(z, d);
      String shiftedResult;
      try {
        shifted(ix, round == 3 ? 1 : 0, iy);
        shiftedResult = "ok";
      } catch (ArrayIndexOutOfBoundsException e) {
        shiftedResult = e.getClass().getSimpleName();
      }
      System.out.printf("round %d: out %08x, z %016x, d %016x, shifted %s %08x %08x%n", round,
          Float.floatToRawIntBits(out[N / 3]), Double.doubleToRawLongBits(z[N - 7]),
          Double.doubleToRawLongBits(d[N / 2]), shiftedResult, iy[5], iy[N - 2]);
    }
    System.out.println("checksum " + Digest.of(out) + " " + Digest.of(z) + " " + Digest.of(d) + " " + Digest.of(iy));
  }
}

package io.looplift.analyzer;

/** Loop shapes as javac compiles them; each static method returns a checksum of what it computed. */
public class Shapes {
  static float scale = 1.5f;
  static double[] field = new double[100];

  static double cnd(double x) {
    double k = 1.0 / (1.0 + 0.2316419 * Math.abs(x));
    double w = 1.0 - 0.3989422804014327 * Math.exp(-x * x / 2) * k * (0.319381530 + k * (-0.356563782 + k * 1.781477937));
    return x < 0 ? 1.0 - w : w;
  }

  public static double map(double[] a, double[] out) {
    for (int i = 0; i < a.length; i++) out[i] = a[i] * 2.0 + Math.sqrt(a[i]) + cnd(a[i]);
    double s = 0;
    for (double d : out) s += d;
    return s;
  }

  public static double select(float[] a, float[] out, float t) {
    for (int i = 0; i < a.length; i++) {
      float x = a[i];
      if (x > t) out[i] = x * scale; else out[i] = -x;
    }
    double s = 0;
    for (float f : out) s += f;
    return s;
  }

  public static long reversed(int[] a, int[] out) {
    for (int i = a.length - 1; i >= 0; i--) out[i] = (a[i] << 3) ^ (a[i] >>> 2) | 7;
    long s = 0;
    for (int v : out) s = s * 31 + v;
    return s;
  }

  public static long step2(byte[] a, short[] out, int n) {
    for (int i = 1; i <= n - 2; i += 2) out[i] = (short) (a[i] * 3 + a[i - 1] + a[i + 1]);
    long s = 0;
    for (short v : out) s = s * 31 + v;
    return s;
  }

  public static long sumInt(int[] a) {
    long s = 0;
    for (int i = 0; i < a.length; i++) s += a[i];
    return s;
  }

  public static double variance(double[] x) {
    double sum = 0, sq = 0;
    for (int i = 0; i < x.length; i++) { sum += x[i]; sq += x[i] * x[i]; }
    double mean = sum / x.length;
    return sq / x.length - mean * mean;
  }

  public static double minmax(float[] a) {
    float mn = Float.POSITIVE_INFINITY, mx = Float.NEGATIVE_INFINITY;
    int count = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] < mn) mn = a[i];
      mx = Math.max(mx, a[i]);
      if (a[i] > 0.5f) count++;
    }
    return mn + 1000.0 * mx + count;
  }

  public static int argmax(double[] a) {
    int best = 0;
    double bv = a[0];
    for (int i = 1; i < a.length; i++) {
      if (a[i] > bv) { bv = a[i]; best = i; }
    }
    return best;
  }

  public static double prefix(double[] a, double[] out) {
    double s = 0;
    for (int i = 0; i < a.length; i++) { s += a[i]; out[i] = s; }
    return s + out[a.length / 2];
  }

  public static double rows(double[][] m, double k) {
    double t = 0;
    for (int r = 0; r < m.length; r++) {
      double[] row = m[r];
      for (int c = 0; c < row.length; c++) row[c] = row[c] * k + m[r][c];
      t += row[row.length - 1];
    }
    return t;
  }

  public static double chain(float[] a, float[] b, float[] out) {
    int n = a.length;
    float[] t1 = new float[n];
    for (int i = 0; i < n; i++) t1[i] = a[i] * b[i];
    for (int i = 0; i < n; i++) out[i] = t1[i] + 1f;
    return out[n / 3];
  }

  /** A count-down whose test reads the variable before moving it ({@code k-- > 0}); its final value is read. */
  public static int postDecrement(int[] a, int[] out) {
    int k = a.length;
    while (k-- > 0) out[k] = a[k] * 3 + k;
    return k;
  }

  /** A count-up whose test reads the variable before moving it, from a start and to a limit not at the ends. */
  public static long postIncrementSum(int[] a, int from) {
    long s = 0;
    int i = from;
    while (i++ < a.length - 1) s += a[i] - i;
    return s + i;
  }

  /**
   * A count-down to {@code Integer.MIN_VALUE}: restated on the moved variable, its limit would leave the int
   * range, so the original loop runs (and the variable wraps to {@code Integer.MAX_VALUE} at its exit).
   */
  public static long postDecrementToMinValue(int[] a, int from) {
    long s = 0;
    int k = from;
    while (k-- > Integer.MIN_VALUE) s += a[k - Integer.MIN_VALUE];
    return s + k;
  }

  /** Two loops, the second going on from where the first stopped: the first one's exit is its entry. */
  public static int halves(float[] a, float[] out) {
    int i = 0;
    for (; i < a.length / 2; i++) out[i] = a[i] * 2f;
    for (; i < a.length; i++) out[i] = a[i] * 3f;
    return i;
  }

  /** Unrolled by four, as hand-tuned code is: the exit test compares the variable plus a constant. */
  public static int unrolledByFour(float[] a, float[] out) {
    int i = 0;
    for (; i + 4 <= a.length; i += 4) {
      out[i] = a[i] * 2f;
      out[i + 1] = a[i + 1] * 2f;
      out[i + 2] = a[i + 2] * 2f;
      out[i + 3] = a[i + 3] * 2f;
    }
    for (; i < a.length; i++) out[i] = a[i] * 3f;
    return i;
  }

  /** An autocorrelation at a run-time lag: the exit test compares the variable plus a value the loop does not change. */
  public static long lagged(int[] a, int lag) {
    long s = 0;
    int i = 0;
    for (; lag + i < a.length; i++) s += (long) a[i] * a[i + lag];
    return s + i;
  }

  /** A count-down whose test subtracts a constant ({@code i - 2 >= 0}). */
  public static int offsetCountDown(int[] a, int[] out) {
    int i = a.length - 1;
    for (; i - 2 >= 0; i--) out[i] = a[i] + a[i - 2];
    return i;
  }

  /**
   * A test whose sum wraps: {@code i + 4} leaves the int range before the variable passes
   * {@code Integer.MAX_VALUE - 4}, so the original loop goes on, past the end of {@code a}; restated on the
   * variable, it would stop there. So the original loop runs, and throws.
   */
  public static long offsetToMaxValue(int[] a, int from) {
    long s = 0;
    for (int i = from; i + 4 <= Integer.MAX_VALUE; i++) s += a[i - from];
    return s;
  }

  /** A limit computed by a pure JDK method in the exit test, evaluated at every iteration by Java. */
  public static int minLimit(float[] a, float[] out, int n) {
    int i = 0;
    for (; i < Math.min(n, a.length); i++) out[i] = a[i] * 2f;
    return i;
  }

  /** A gather: a permutation of {@code x}. */
  public static double gathered(double[] x, int[] perm, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = x[perm[i]] * 2;
    return out[out.length - 1];
  }

  /** A gather through one-based indices, as code ported from Fortran has them. */
  public static float gatheredOneBased(float[] x, int[] idx, float[] out) {
    for (int i = 0; i < out.length; i++) out[i] = x[idx[i] - 1] + x[i];
    return out[0];
  }

  /** A gather in a reduction: a sum of weights looked up by code. */
  public static double gatheredSum(double[] weights, int[] codes) {
    double s = 0;
    for (int i = 0; i < codes.length; i++) s += weights[codes[i]];
    return s;
  }

  /** A gather from the array the loop writes: iterations read what others write. */
  public static float gatheredFromWritten(float[] a, int[] perm) {
    for (int i = 0; i < perm.length; i++) a[i] = a[perm[i]] + 1;
    return a[0];
  }

  /** A gather whose indices the loop itself writes. */
  public static float gatheredByWritten(float[] x, int[] perm, float[] out) {
    for (int i = 0; i < perm.length; i++) {
      out[i] = x[perm[i]];
      perm[i] = 0;
    }
    return out[0];
  }

  /** A scatter: writes at loaded indices stay rejected (two iterations may write one element). */
  public static float scattered(float[] x, int[] perm, float[] out) {
    for (int i = 0; i < perm.length; i++) out[perm[i]] = x[i];
    return out[0];
  }

  public static float carried(float[] a) {
    for (int i = 1; i < a.length; i++) a[i] += a[i - 1];
    return a[a.length - 1];
  }

  public static int earlyExit(int[] a) {
    int i;
    for (i = 0; i < a.length; i++) if (a[i] == 42) break;
    return i;
  }

  public static int throwsPartWay(int[] a, int[] out) {
    try {
      for (int i = 0; i <= a.length; i++) out[i] = a[i] + 1;
    } catch (ArrayIndexOutOfBoundsException e) {
      return -out[out.length - 1];
    }
    return 0;
  }

  public static double fieldLoop(int n) {
    for (int i = 0; i < n; i++) field[i] = i * 0.5 + scale;
    return field[n - 1];
  }

  public static long conversions(double[] d, int[] iout, long[] lout, char[] cout) {
    for (int i = 0; i < d.length; i++) {
      iout[i] = (int) (d[i] * 1e10);
      lout[i] = (long) d[i] << 40;
      cout[i] = (char) iout[i];
    }
    long s = 0;
    for (int i = 0; i < d.length; i++) s = s * 31 + iout[i] + lout[i] + cout[i];
    return s;
  }

  /** Time steps: two loops handing arrays to each other inside a loop that is not offloaded. */
  public static int timeSteps(double[] a, double[] b, int steps) {
    for (int t = 0; t < steps; t++) {
      for (int i = 0; i < a.length; i++) b[i] = a[i] * 0.5 + 1;
      for (int i = 0; i < a.length; i++) a[i] = b[i] - 0.25;
    }
    return steps;
  }

  /** Time steps that read a result after every step. */
  public static double timeStepsRead(double[] a, double[] b, int steps) {
    double s = 0;
    for (int t = 0; t < steps; t++) {
      for (int i = 0; i < a.length; i++) b[i] = a[i] * 0.5 + 1;
      s += b[t];
    }
    return s;
  }
}

package io.looplift.analyzer;

/** Reduction loops in the shapes javac emits for them; each returns what it accumulated. */
public class ReductionShapes {
  static int intSum(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) s += a[i]; return s; }
  static int intSumLong(int[] a) { int s = 7; for (int i = 0; i < a.length; i++) s = s + a[i] * 3; return s; }
  static int intDiff(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) s -= a[i]; return s; }
  static int intProduct(int[] a) { int p = 1; for (int i = 0; i < a.length; i++) p *= a[i] | 1; return p; }
  static int intAnd(int[] a) { int x = -1; for (int i = 0; i < a.length; i++) x &= a[i] | 0x10; return x; }
  static int intOr(int[] a) { int x = 0; for (int i = 0; i < a.length; i++) x |= a[i] & 0x0F0F; return x; }
  static int intXor(int[] a) { int x = 0; for (int i = 0; i < a.length; i++) x ^= a[i]; return x; }
  static int intMin(int[] a) { int m = Integer.MAX_VALUE; for (int i = 0; i < a.length; i++) m = Math.min(m, a[i]); return m; }
  static int intMax(int[] a) { int m = Integer.MIN_VALUE; for (int i = 0; i < a.length; i++) m = Math.max(a[i], m); return m; }
  static int intIfLess(int[] a) { int m = a[0]; for (int i = 0; i < a.length; i++) if (a[i] < m) m = a[i]; return m; }
  static int intIfGreaterMirrored(int[] a) { int m = 0; for (int i = 0; i < a.length; i++) if (m < a[i]) m = a[i]; return m; }
  static int intCount(int[] a) { int n = 0; for (int i = 0; i < a.length; i++) if (a[i] > 0) n++; return n; }
  static int intCondSum(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) if ((a[i] & 1) == 0) s += a[i]; return s; }
  static long longSumOfSquares(int[] a) { long s = 0; for (int i = 0; i < a.length; i++) s += (long) a[i] * a[i]; return s; }
  static long longMax(long[] a) { long m = Long.MIN_VALUE; for (int i = 0; i < a.length; i++) if (a[i] >= m) m = a[i]; return m; }
  static long longXorShift(long[] a) { long h = 0; for (int i = 0; i < a.length; i++) h ^= a[i] >>> 7; return h; }
  static float floatMin(float[] a) { float m = Float.POSITIVE_INFINITY; for (int i = 0; i < a.length; i++) m = Math.min(m, a[i]); return m; }
  static float floatMax(float[] a) { float m = Float.NEGATIVE_INFINITY; for (int i = 0; i < a.length; i++) m = Math.max(m, a[i]); return m; }
  static float floatIfLess(float[] a) { float m = 1f; for (int i = 0; i < a.length; i++) if (a[i] < m) m = a[i]; return m; }
  static float floatIfLessEq(float[] a) { float m = 1f; for (int i = 0; i < a.length; i++) if (a[i] <= m) m = a[i]; return m; }
  static float floatIfGreater(float[] a) { float m = -1f; for (int i = 0; i < a.length; i++) if (a[i] > m) m = a[i]; return m; }
  static float floatIfGreaterMirrored(float[] a) { float m = -1f; for (int i = 0; i < a.length; i++) if (m < a[i]) m = a[i]; return m; }
  static float floatSum(float[] a) { float s = 0; for (int i = 0; i < a.length; i++) s += a[i] * 0.5f; return s; }
  static double doubleProduct(double[] a) { double p = 1; for (int i = 0; i < a.length; i++) p *= 1 + a[i] * 1e-3; return p; }
  static double doubleMax(double[] a) { double m = Double.NEGATIVE_INFINITY; for (int i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i])); return m; }
  static int doubleCount(double[] a) { int n = 0; for (int i = 0; i < a.length; i++) if (a[i] > 0.25) n++; return n; }
  static String meanVariance(double[] a) {
    double s = 0, sq = 0;
    for (int i = 0; i < a.length; i++) { s += a[i]; sq += a[i] * a[i]; }
    return s + " " + sq;
  }
  static String several(int[] a) {
    int lo = Integer.MAX_VALUE, hi = Integer.MIN_VALUE, evens = 0;
    long total = 0;
    for (int i = 0; i < a.length; i++) {
      int v = a[i];
      lo = Math.min(lo, v);
      if (v > hi) hi = v;
      if ((v & 1) == 0) evens++;
      total += v;
    }
    return lo + " " + hi + " " + evens + " " + total;
  }
  static int reversedSum(int[] a) { int s = 0; for (int i = a.length - 1; i >= 0; i--) s += a[i] * i; return s; }
  static int mapThenReduce(int[] a, int[] out) {
    for (int i = 0; i < a.length; i++) out[i] = a[i] * a[i];
    int s = 0;
    for (int i = 0; i < out.length; i++) s += out[i];
    return s;
  }
}

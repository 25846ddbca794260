package io.looplift.apps;

/**
 * Element-wise operations and reductions over {@code double[]}, one small static method each, as numeric
 * libraries' utility classes have them (Smile's {@code MathEx}, EJML's {@code CommonOps_DDRM}): a class with
 * more methods with loops than the agent analyzes on the thread loading it (see {@link VectorOpsUser}).
 */
final class VectorOps {
  private VectorOps() {}

  static void add(double[] a, double[] b, double[] out) { for (int i = 0; i < out.length; i++) out[i] = a[i] + b[i]; }
  static void sub(double[] a, double[] b, double[] out) { for (int i = 0; i < out.length; i++) out[i] = a[i] - b[i]; }
  static void mul(double[] a, double[] b, double[] out) { for (int i = 0; i < out.length; i++) out[i] = a[i] * b[i]; }
  static void div(double[] a, double[] b, double[] out) { for (int i = 0; i < out.length; i++) out[i] = a[i] / b[i]; }
  static void scale(double k, double[] a, double[] out) { for (int i = 0; i < out.length; i++) out[i] = k * a[i]; }
  static void axpy(double k, double[] x, double[] y) { for (int i = 0; i < y.length; i++) y[i] += k * x[i]; }
  static void abs(double[] a, double[] out) { for (int i = 0; i < out.length; i++) out[i] = Math.abs(a[i]); }
  static void sqrt(double[] a, double[] out) { for (int i = 0; i < out.length; i++) out[i] = Math.sqrt(a[i]); }
  static void square(double[] a, double[] out) { for (int i = 0; i < out.length; i++) out[i] = a[i] * a[i]; }
  static void clamp(double[] a, double lo, double hi, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = Math.min(hi, Math.max(lo, a[i]));
  }
  static void lerp(double[] a, double[] b, double t, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = a[i] + t * (b[i] - a[i]);
  }
  static double sum(double[] a) { double s = 0; for (int i = 0; i < a.length; i++) s += a[i]; return s; }
  static double dot(double[] a, double[] b) { double s = 0; for (int i = 0; i < a.length; i++) s += a[i] * b[i]; return s; }
  static double normSq(double[] a) { double s = 0; for (int i = 0; i < a.length; i++) s += a[i] * a[i]; return s; }
  static double min(double[] a) { double m = Double.POSITIVE_INFINITY; for (int i = 0; i < a.length; i++) m = Math.min(m, a[i]); return m; }
  static double max(double[] a) { double m = Double.NEGATIVE_INFINITY; for (int i = 0; i < a.length; i++) m = Math.max(m, a[i]); return m; }
  static double distanceSq(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      double d = a[i] - b[i];
      s += d * d;
    }
    return s;
  }
  static long countAbove(double[] a, double t) { long n = 0; for (int i = 0; i < a.length; i++) n += a[i] > t ? 1 : 0; return n; }
}

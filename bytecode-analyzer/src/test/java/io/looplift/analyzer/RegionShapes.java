package io.looplift.analyzer;

/**
 * Consecutive loops with temporary arrays, as javac compiles them; each static method returns a checksum of
 * what it computed.
 */
public class RegionShapes {
  static double sum(float[] x) {
    double s = 0;
    for (float v : x) s = s * 1.0001 + v;
    return s;
  }

  static double sum(double[] x) {
    double s = 0;
    for (double v : x) s = s * 1.0001 + v;
    return s;
  }

  public static double chain4(float[] a, float[] b, float[] c, float[] out) {
    int n = a.length;
    float[] t1 = new float[n], t2 = new float[n], t3 = new float[n];
    for (int i = 0; i < n; i++) t1[i] = a[i] * b[i];
    for (int i = 0; i < n; i++) t2[i] = t1[i] + c[i];
    for (int i = 0; i < n; i++) t3[i] = t2[i] * 0.5f;
    for (int i = 0; i < n; i++) out[i] = t3[i] - a[i];
    return sum(out);
  }

  /** Temporaries allocated between loops, and a parameter reassigned between them. */
  public static double between(double[] x, double[] out, int k) {
    int n = x.length;
    double[] t = new double[n];
    for (int i = 0; i < n; i++) t[i] = x[i] * k;
    k = k * 3 + 1;
    int half = n / 2;
    double[] u = new double[n];
    for (int i = 0; i < n; i++) u[i] = t[i] + k;
    for (int i = 0; i < half; i++) out[i] = u[i] - t[i];
    return sum(out) + k;
  }

  /** The array is read after the loops: it is not a temporary. */
  public static double escapes(float[] a, float[] out) {
    float[] t = new float[a.length];
    for (int i = 0; i < a.length; i++) t[i] = a[i] + 1;
    for (int i = 0; i < a.length; i++) out[i] = t[i] * 2;
    return t[3] + sum(out);
  }

  /** The array bounds a loop: it is not a temporary. */
  public static double limitTemp(float[] a, float[] out) {
    float[] t = new float[a.length];
    for (int i = 0; i < t.length; i++) t[i] = a[i] * 3;
    for (int i = 0; i < a.length; i++) out[i] = t[i] + 1;
    return sum(out);
  }

  /** A negative length: the original's NegativeArraySizeException. */
  public static int negative(int[] a, int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) t[i] = a[i] + 1;
    for (int i = 0; i < n; i++) a[i] = t[i] * 2;
    return a[0];
  }

  /** A division by zero between the loops, after the first has written its output. */
  public static int divides(int[] a, int[] out, int d) {
    int n = a.length;
    int[] t = new int[n];
    for (int i = 0; i < n; i++) t[i] = a[i] + 1;
    int m = n / d;
    for (int i = 0; i < n; i++) out[i] = t[i] * m;
    return out[1] + a[0];
  }

  /** The second loop reads past the temporary's end: an ArrayIndexOutOfBoundsException part-way. */
  public static int bounds(int[] a, int[] out) {
    int n = a.length;
    int[] t = new int[n];
    for (int i = 0; i < n; i++) t[i] = a[i] * 2;
    for (int i = 0; i < n; i++) out[i] = t[i + 1];
    return out[0];
  }

  /** Temporaries of the narrow types truncate as the JVM's stores do. */
  public static long narrow(int[] a, long[] out) {
    int n = a.length;
    byte[] b = new byte[n];
    short[] s = new short[n];
    char[] c = new char[n];
    boolean[] z = new boolean[n];
    for (int i = 0; i < n; i++) b[i] = (byte) (a[i] * 7);
    for (int i = 0; i < n; i++) s[i] = (short) (b[i] * a[i]);
    for (int i = 0; i < n; i++) c[i] = (char) (s[i] - b[i]);
    for (int i = 0; i < n; i++) z[i] = c[i] > 30000;
    for (int i = 0; i < n; i++) out[i] = (long) c[i] * s[i] + (z[i] ? 1 : 0);
    long h = 0;
    for (long v : out) h = h * 31 + v;
    return h;
  }
}

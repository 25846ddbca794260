import java.util.Random;

/**
 * The loop nests of the ratio benchmark at sizes that fill a GPU: a 1024 x 1024 double matrix product, n-body
 * over 8,192 and 32,768 bodies, and a 31-tap convolution over 16M floats. Plain Java; run it with and without
 * the agent. Prints "name millis" (best run after warm-up) and a checksum line of result bits.
 */
public class NestSizes {
  static void matmul(double[] a, double[] b, double[] c, int n) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
  }

  static void nbody(float[] px, float[] py, float[] ax, float[] ay) {
    for (int i = 0; i < px.length; i++) {
      float fx = 0f, fy = 0f;
      for (int j = 0; j < px.length; j++) {
        float dx = px[j] - px[i], dy = py[j] - py[i];
        float d2 = dx * dx + dy * dy + 1e-3f;
        float inv = 1f / (d2 * (float) Math.sqrt(d2));
        fx += dx * inv; fy += dy * inv;
      }
      ax[i] = fx; ay[i] = fy;
    }
  }

  static void conv(float[] x, float[] w, float[] y) {
    for (int i = 0; i < x.length - w.length; i++) {
      float s = 0f;
      for (int t = 0; t < w.length; t++) s += w[t] * x[i + t];
      y[i] = s;
    }
  }

  interface Kernel { void run(); }

  /** Best of at least 3 timed runs (more while under 2 s in all), after warm-up runs for at least 1 s. */
  static double best(Kernel k) {
    long start = System.nanoTime();
    for (int i = 0; i < 2 || System.nanoTime() - start < 1_000_000_000L; i++) k.run();
    double best = Double.MAX_VALUE;
    start = System.nanoTime();
    for (int i = 0; i < 3 || System.nanoTime() - start < 2_000_000_000L; i++) {
      long t = System.nanoTime();
      k.run();
      best = Math.min(best, (System.nanoTime() - t) / 1e6);
    }
    return best;
  }

  static float[] floats(Random r, int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = r.nextFloat();
    return a;
  }

  public static void main(String[] args) {
    Random r = new Random(7);
    int mn = 1024;
    double[] ma = new double[mn * mn], mb = new double[mn * mn], mc = new double[mn * mn];
    for (int i = 0; i < ma.length; i++) { ma[i] = r.nextDouble(); mb[i] = r.nextDouble(); }
    float[] sx = floats(r, 8192), sy = floats(r, 8192), sfx = new float[8192], sfy = new float[8192];
    float[] lx = floats(r, 32768), ly = floats(r, 32768), lfx = new float[32768], lfy = new float[32768];
    float[] x = floats(r, 1 << 24), taps = floats(r, 31), y = new float[1 << 24];
    String[] names = {"matmul-1024", "nbody-8192", "nbody-32768", "conv-16M"};
    Kernel[] kernels = {() -> matmul(ma, mb, mc, mn), () -> nbody(sx, sy, sfx, sfy), () -> nbody(lx, ly, lfx, lfy),
        () -> conv(x, taps, y)};
    String only = args.length > 0 ? args[0] : "";
    for (int i = 0; i < kernels.length; i++) {
      if (only.isEmpty() || only.equals(names[i])) System.out.printf("%s %.3f%n", names[i], best(kernels[i]));
    }
    long h = 17;
    for (double v : mc) h = h * 31 + Double.doubleToRawLongBits(v);
    for (float[] a : new float[][] {sfx, sfy, lfx, lfy, y}) for (float v : a) h = h * 31 + Float.floatToRawIntBits(v);
    System.out.println("checksum " + Long.toHexString(h));
  }
}

package io.looplift.executors.jvm;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;

/**
 * Prints (does not assert) how long four nests take as plain Java loops and through the jvm executor: a
 * 512x512 double matrix product, a 31-tap convolution over 16M floats, an n-body step over 4096 bodies and
 * the dot products of 16,384 rows of 512 doubles with one vector.
 * The executor runs on every processor with the jam, and on one thread with and without it, to show what
 * each part brings. Each figure is the best of a few runs after warm-up runs (on a shared machine the best
 * run is the one least disturbed by other processes); every result is checked against the plain loop's bit
 * for bit. Run by hand, not by the build:
 * {@code java -cp <test and main classes, ASM> io.looplift.executors.jvm.NestTimings}.
 */
public final class NestTimings {
  private static final int WARMUPS = 3;
  private static final int RUNS = 7;

  private NestTimings() {}

  /** The timed work: one run, on fresh output. */
  private interface Work {
    void run() throws ExecutionException;
  }

  public static void main(String[] args) throws Exception {
    JvmExecutor all = new JvmExecutor();
    JvmExecutor oneJammed = new JvmExecutor(1);
    JvmExecutor onePlain = new JvmExecutor(1, JvmExecutor.MIN_CHUNK_WORK, false);
    Random rnd = new Random(42);
    // Other processes' load skews the timings of several threads most: print it with them.
    System.out.printf("%d processors, load average %.1f%n", Runtime.getRuntime().availableProcessors(), load());

    int n = 512;
    double[] a = new double[n * n];
    double[] b = new double[n * n];
    for (int x = 0; x < a.length; x++) {
      a[x] = rnd.nextGaussian();
      b[x] = rnd.nextGaussian();
    }
    double[] javaC = new double[n * n];
    double[] c = new double[n * n];
    Object[] mm = {a, b, c};
    long[] mmParams = {n};
    compare("matmul 512", () -> matmul(a, b, javaC, n), javaC, c,
        () -> launch(all, Nests.matmul(), mm, mmParams, n),
        () -> launch(oneJammed, Nests.matmul(), mm, mmParams, n),
        () -> launch(onePlain, Nests.matmul(), mm, mmParams, n));

    int len = 1 << 24;
    int taps = 31;
    float[] x = new float[len + taps - 1];
    float[] w = new float[taps];
    for (int k = 0; k < x.length; k++) x[k] = (float) rnd.nextGaussian();
    for (int k = 0; k < taps; k++) w[k] = (float) rnd.nextGaussian();
    float[] javaY = new float[len];
    float[] y = new float[len];
    Object[] conv = {x, w, y};
    long[] convParams = {taps};
    compare("conv 16M x 31", () -> convolve(x, w, javaY, len, taps), javaY, y,
        () -> launch(all, Nests.convolution(), conv, convParams, len),
        () -> launch(oneJammed, Nests.convolution(), conv, convParams, len),
        () -> launch(onePlain, Nests.convolution(), conv, convParams, len));

    int bodies = 4096;
    float[] px = new float[bodies];
    float[] py = new float[bodies];
    for (int k = 0; k < bodies; k++) {
      px[k] = (float) rnd.nextGaussian();
      py[k] = (float) rnd.nextGaussian();
    }
    float dt = 0.01f;
    float eps = 1e-3f;
    float[] javaVx = new float[bodies];
    float[] javaVy = new float[bodies];
    float[] vx = new float[bodies];
    float[] vy = new float[bodies];
    Object[] nb = {px, py, vx, vy};
    long[] nbParams = {bodies, Float.floatToRawIntBits(dt), Float.floatToRawIntBits(eps)};
    // Velocities accumulate: every run starts from zero.
    compare("n-body 4096", () -> {
      Arrays.fill(javaVx, 0);
      Arrays.fill(javaVy, 0);
      nbody(px, py, javaVx, javaVy, bodies, dt, eps);
    }, javaVx, vx,
        () -> nbodyRun(all, nb, nbParams, vx, vy, bodies),
        () -> nbodyRun(oneJammed, nb, nbParams, vx, vy, bodies),
        () -> nbodyRun(onePlain, nb, nbParams, vx, vy, bodies));

    double[][] rows = new double[16384][512];
    double[] q = new double[512];
    for (double[] row : rows) for (int k = 0; k < row.length; k++) row[k] = rnd.nextGaussian();
    for (int k = 0; k < q.length; k++) q[k] = rnd.nextGaussian();
    double[] javaDots = new double[rows.length];
    double[] dots = new double[rows.length];
    Object[] rd = {rows, q, dots};
    compare("row dots 16K x 512", () -> rowDots(rows, q, javaDots), javaDots, dots,
        () -> launch(all, Nests.rowDots(), rd, new long[0], rows.length),
        () -> launch(oneJammed, Nests.rowDots(), rd, new long[0], rows.length),
        () -> launch(onePlain, Nests.rowDots(), rd, new long[0], rows.length));

    System.out.printf("load average %.1f%n", load());
    all.close();
    oneJammed.close();
    onePlain.close();
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static void nbodyRun(JvmExecutor e, Object[] arrays, long[] params, float[] vx, float[] vy, int bodies)
      throws ExecutionException {
    Arrays.fill(vx, 0);
    Arrays.fill(vy, 0);
    launch(e, Nests.nbody(), arrays, params, bodies);
  }

  private static void launch(JvmExecutor e, LoopTemplate t, Object[] arrays, long[] params, int trips) throws ExecutionException {
    e.execute(new Launch(t, arrays, params, new long[0], 0, 1, trips), ExecutionOptions.EXACT);
  }

  private static void compare(String name, Work java, Object javaOut, Object out, Work all, Work oneJammed, Work onePlain)
      throws ExecutionException {
    double plain = best(java);
    double[] times = {best(all), best(oneJammed), best(onePlain)};
    String same = Arrays.equals(bits(javaOut), bits(out)) ? "same results" : "RESULTS DIFFER";
    System.out.printf("%-14s java %8.1f ms | executor, all threads %8.1f ms (%.2fx) | 1 thread jammed %8.1f ms (%.2fx)"
        + " | 1 thread not jammed %8.1f ms (%.2fx) | %s%n", name, plain, times[0], plain / times[0], times[1],
        plain / times[1], times[2], plain / times[2], same);
  }

  private static long[] bits(Object array) {
    if (array instanceof double[] d) return Arrays.stream(d).mapToLong(Double::doubleToLongBits).toArray();
    float[] f = (float[]) array;
    long[] b = new long[f.length];
    for (int k = 0; k < f.length; k++) b[k] = Float.floatToIntBits(f[k]);
    return b;
  }

  private static double best(Work w) throws ExecutionException {
    for (int r = 0; r < WARMUPS; r++) w.run();
    double best = Double.MAX_VALUE;
    for (int r = 0; r < RUNS; r++) {
      long t0 = System.nanoTime();
      w.run();
      best = Math.min(best, (System.nanoTime() - t0) / 1e6);
    }
    return best;
  }

  private static void matmul(double[] a, double[] b, double[] c, int n) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
    }
  }

  private static void convolve(float[] x, float[] w, float[] y, int n, int taps) {
    for (int i = 0; i < n; i++) {
      float s = 0;
      for (int k = 0; k < taps; k++) s += x[i + k] * w[k];
      y[i] = s;
    }
  }

  private static void rowDots(double[][] rows, double[] q, double[] dots) {
    for (int i = 0; i < rows.length; i++) {
      double s = 0;
      for (int k = 0; k < rows[i].length; k++) s += rows[i][k] * q[k];
      dots[i] = s;
    }
  }

  private static void nbody(float[] px, float[] py, float[] vx, float[] vy, int n, float dt, float eps) {
    for (int i = 0; i < n; i++) {
      float fx = 0;
      float fy = 0;
      for (int j = 0; j < n; j++) {
        float dx = px[j] - px[i];
        float dy = py[j] - py[i];
        float inv = 1f / (float) Math.sqrt(dx * dx + dy * dy + eps);
        float inv3 = inv * inv * inv;
        fx += dx * inv3;
        fy += dy * inv3;
      }
      vx[i] += fx * dt;
      vy[i] += fy * dt;
    }
  }
}

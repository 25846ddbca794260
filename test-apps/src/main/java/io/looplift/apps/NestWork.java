package io.looplift.apps;

import java.util.Arrays;
import java.util.Random;

/**
 * Work done in loop nests, the way numeric Java is usually written: an image pipeline (a 3x3 box blur, a
 * Sobel edge magnitude, a per-row normalization of a matrix of features), a k-nearest-neighbour search over
 * 768-dimensional embeddings (a distance matrix through a helper with a loop, then the nearest base vector
 * of each query), a small dense matrix product, column sums, colour planes split and joined again through
 * running indices (the joining one read after its loop), heat diffusion stepped in one method (its
 * sweeps queue together), and the forces of an n-body step (every pair through a square root and a
 * division), rows times a vector through an inner loop unrolled by hand and its tail, and a signal scaled by a
 * loop unrolled by hand, then autocorrelated (an inner loop whose test adds
 * the lag), smoothed by a moving average clamped at the ends, and summed in blocks whose end a helper clamps.
 * Deterministic: fixed seed, results printed as exact bits.
 */
public final class NestWork {
  private NestWork() {}

  /** A 3x3 box blur of the interior pixels of a {@code w}-wide image; the border is copied. */
  static void blur(float[] in, float[] out, int w, int h) {
    for (int y = 1; y < h - 1; y++) {
      for (int x = 1; x < w - 1; x++) {
        float s = 0f;
        for (int dy = -1; dy <= 1; dy++) {
          for (int dx = -1; dx <= 1; dx++) s += in[(y + dy) * w + x + dx];
        }
        out[y * w + x] = s / 9f;
      }
    }
    for (int x = 0; x < w; x++) {
      out[x] = in[x];
      out[(h - 1) * w + x] = in[(h - 1) * w + x];
    }
    for (int y = 0; y < h; y++) {
      out[y * w] = in[y * w];
      out[y * w + w - 1] = in[y * w + w - 1];
    }
  }

  /** The Sobel gradient magnitude of the interior pixels. */
  static void sobel(float[] in, float[] mag, int w, int h) {
    for (int y = 1; y < h - 1; y++) {
      for (int x = 1; x < w - 1; x++) {
        int c = y * w + x;
        float gx = in[c - w + 1] + 2f * in[c + 1] + in[c + w + 1] - in[c - w - 1] - 2f * in[c - 1] - in[c + w - 1];
        float gy = in[c + w - 1] + 2f * in[c + w] + in[c + w + 1] - in[c - w - 1] - 2f * in[c - w] - in[c - w + 1];
        mag[c] = (float) Math.sqrt(gx * gx + gy * gy);
      }
    }
  }

  /** Scales each row of {@code m} to unit L2 norm (rows of zeros stay zeros). */
  static void normalizeRows(double[][] m) {
    for (int i = 0; i < m.length; i++) {
      double[] row = m[i];
      double ss = 0;
      for (int j = 0; j < row.length; j++) ss += row[j] * row[j];
      double inv = ss == 0 ? 0 : 1 / Math.sqrt(ss);
      for (int j = 0; j < row.length; j++) row[j] = row[j] * inv;
    }
  }

  static float squaredDistance(float[] a, float[] b) {
    float s = 0f;
    for (int k = 0; k < a.length; k++) {
      float d = a[k] - b[k];
      s += d * d;
    }
    return s;
  }

  /** The squared distance of every query to every base vector, through a helper with a loop. */
  static void distances(float[][] queries, float[][] base, float[][] dist) {
    for (int q = 0; q < queries.length; q++) {
      float[] row = dist[q];
      for (int b = 0; b < base.length; b++) row[b] = squaredDistance(queries[q], base[b]);
    }
  }

  /** For each query, the index of its nearest base vector (the first of equals). */
  static void nearest(float[][] dist, int[] best) {
    for (int q = 0; q < dist.length; q++) {
      float[] row = dist[q];
      int arg = 0;
      float min = row[0];
      for (int b = 1; b < row.length; b++) {
        if (row[b] < min) {
          min = row[b];
          arg = b;
        }
      }
      best[q] = arg;
    }
  }

  static void matmul(double[] a, double[] b, double[] c, int n) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
        c[i * n + j] = s;
      }
    }
  }

  static void columnSums(double[] m, double[] sums, int rows, int cols) {
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) sums[j] += m[i * cols + j];
    }
  }

  /**
   * Heat diffusion: {@code steps} pairs of sweeps, each averaging a cell's four neighbours, from {@code a}
   * into {@code b} and back. No read between the sweeps, so they reach the pipeline as one flush.
   */
  static void diffuse(float[] a, float[] b, int w, int h, int steps) {
    for (int t = 0; t < steps; t++) {
      for (int y = 1; y < h - 1; y++) {
        for (int x = 1; x < w - 1; x++) {
          b[y * w + x] = 0.25f * (a[y * w + x - 1] + a[y * w + x + 1] + a[(y - 1) * w + x] + a[(y + 1) * w + x]);
        }
      }
      for (int y = 1; y < h - 1; y++) {
        for (int x = 1; x < w - 1; x++) {
          a[y * w + x] = 0.25f * (b[y * w + x - 1] + b[y * w + x + 1] + b[(y - 1) * w + x] + b[(y + 1) * w + x]);
        }
      }
    }
  }

  /** A gamma-like curve over an image, row by row through a running pixel index. */
  static void curve(float[] in, float[] out, int w, int h) {
    for (int y = 0; y < h; y++) {
      int p = y * w;
      for (int x = 0; x < w; x++) {
        float v = in[p];
        out[p] = v * v * (3 - 2 * v);
        p++;
      }
    }
  }

  /** Splits interleaved RGB pixels into planes, with a second index that moves three places a pixel. */
  static void deinterleave(float[] rgb, float[] red, float[] green, float[] blue) {
    int p = 0;
    for (int i = 0; i < red.length; i++) {
      red[i] = rgb[p++];
      green[i] = rgb[p++];
      blue[i] = rgb[p++];
    }
  }

  /**
   * Interleaves three planes back into {@code rgb} from element {@code at} on, through a running index, and
   * returns where it stopped: the index is read after the loop.
   */
  static int interleave(float[] red, float[] green, float[] blue, float[] rgb, int at) {
    int p = at;
    for (int i = 0; i < red.length; i++) {
      rgb[p++] = blue[i];
      rgb[p++] = red[i];
      rgb[p++] = green[i];
    }
    return p;
  }

  /** The gravitational pull on each of the bodies at {@code (px, py)} with masses {@code mass}, softened. */
  static void forces(float[] px, float[] py, float[] mass, float[] ax, float[] ay) {
    for (int i = 0; i < px.length; i++) {
      float fx = 0f;
      float fy = 0f;
      for (int j = 0; j < px.length; j++) {
        float dx = px[j] - px[i];
        float dy = py[j] - py[i];
        float d2 = dx * dx + dy * dy + 1e-4f;
        float pull = mass[j] / (d2 * (float) Math.sqrt(d2));
        fx += dx * pull;
        fy += dy * pull;
      }
      ax[i] = fx;
      ay[i] = fy;
    }
  }

  /** The autocorrelation of {@code x} at lags 0 to {@code acf.length - 1}: the inner test is {@code i + lag < n}. */
  static void autocorrelation(float[] x, double[] acf) {
    for (int lag = 0; lag < acf.length; lag++) {
      double s = 0;
      for (int i = 0; i + lag < x.length; i++) s += (double) x[i] * x[i + lag];
      acf[lag] = s;
    }
  }

  /** Scales {@code in} by {@code k}, unrolled by four as hand-tuned code is, then the last few one by one. */
  static void scaleUnrolled(float[] in, float[] out, float k) {
    int i = 0;
    for (; i + 4 <= in.length; i += 4) {
      out[i] = in[i] * k;
      out[i + 1] = in[i + 1] * k;
      out[i + 2] = in[i + 2] * k;
      out[i + 3] = in[i + 3] * k;
    }
    for (; i < in.length; i++) out[i] = in[i] * k;
  }

  /**
   * Rows of a matrix times a vector, the inner loop unrolled by four by hand into four partial sums, then its
   * tail going on from where it stopped.
   */
  static void rowsTimes(double[] m, double[] x, double[] y) {
    int cols = x.length;
    for (int r = 0; r < y.length; r++) {
      int base = r * cols;
      double s0 = 0;
      double s1 = 0;
      double s2 = 0;
      double s3 = 0;
      int c = 0;
      for (; c + 4 <= cols; c += 4) {
        s0 += m[base + c] * x[c];
        s1 += m[base + c + 1] * x[c + 1];
        s2 += m[base + c + 2] * x[c + 2];
        s3 += m[base + c + 3] * x[c + 3];
      }
      double s = (s0 + s1) + (s2 + s3);
      for (; c < cols; c++) s += m[base + c] * x[c];
      y[r] = s;
    }
  }

  /** A moving average over {@code 2r + 1} samples, its window clamped at both ends of the signal. */
  static void smooth(float[] x, float[] out, int r) {
    int n = x.length;
    for (int i = 0; i < n; i++) {
      int from = Math.max(0, i - r);
      int to = Math.min(n, i + r + 1);
      float s = 0f;
      for (int j = from; j < to; j++) s += x[j];
      out[i] = s / (to - from);
    }
  }

  /** Sums of blocks of 64 samples, the last one shorter: its end is clamped by a helper. */
  static void blockSums(float[] x, double[] sums) {
    for (int b = 0; b < sums.length; b++) {
      double s = 0;
      for (int j = b * 64; j < least(b * 64 + 64, x.length); j++) s += x[j];
      sums[b] = s;
    }
  }

  /** The lesser of two ints, written as libraries write it (Commons Math's FastMath.min). */
  private static int least(int a, int b) {
    return a <= b ? a : b;
  }

  public static void main(String[] args) {
    Random r = new Random(2026);
    int w = 640;
    int h = 480;
    float[] img = new float[w * h];
    for (int i = 0; i < img.length; i++) img[i] = r.nextFloat();
    float[] blurred = new float[w * h];
    float[] edges = new float[w * h];
    for (int round = 0; round < 3; round++) {
      blur(img, blurred, w, h);
      sobel(blurred, edges, w, h);
      System.out.println("image " + round + " " + Digest.of(blurred) + " " + Digest.of(edges));
      System.arraycopy(blurred, 0, img, 0, img.length);
    }

    double[][] features = new double[300][];
    for (int i = 0; i < features.length; i++) {
      features[i] = new double[64];
      for (int j = 0; j < 64; j++) features[i][j] = i % 17 == 0 ? 0 : r.nextGaussian();
    }
    normalizeRows(features);
    System.out.println("rows " + Digest.of(features[0]) + " " + Digest.of(features[150]) + " " + Digest.of(features[299]));

    int dim = 768;
    float[][] base = new float[400][];
    float[][] queries = new float[40][];
    for (int i = 0; i < base.length; i++) {
      base[i] = new float[dim];
      for (int k = 0; k < dim; k++) base[i][k] = r.nextFloat() - 0.5f;
    }
    for (int q = 0; q < queries.length; q++) {
      queries[q] = base[r.nextInt(base.length)].clone();
      for (int k = 0; k < dim; k++) queries[q][k] += (r.nextFloat() - 0.5f) * 0.1f;
    }
    float[][] dist = new float[queries.length][base.length];
    int[] best = new int[queries.length];
    for (int round = 0; round < 2; round++) {
      distances(queries, base, dist);
      nearest(dist, best);
      System.out.println("knn " + round + " " + Digest.of(best) + " " + Digest.of(dist[0]) + " " + Digest.of(dist[39]));
    }

    int n = 96;
    double[] a = new double[n * n];
    double[] b = new double[n * n];
    double[] c = new double[n * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextDouble() - 0.5;
      b[i] = r.nextDouble() - 0.5;
    }
    matmul(a, b, c, n);
    double[] sums = new double[n];
    columnSums(c, sums, n, n);
    System.out.println("matmul " + Digest.of(c) + " " + Digest.of(sums));
    double[] image = new double[97];
    rowsTimes(c, Arrays.copyOf(sums, 95), image);
    System.out.println("rows " + Digest.of(image));

    float[] rgb = new float[3 * w * h];
    for (int i = 0; i < rgb.length; i++) rgb[i] = r.nextFloat();
    float[] red = new float[w * h];
    float[] green = new float[w * h];
    float[] blue = new float[w * h];
    deinterleave(rgb, red, green, blue);
    System.out.println("planes " + Digest.of(red) + " " + Digest.of(green) + " " + Digest.of(blue));
    float[] bgr = new float[rgb.length + 5];
    int stopped = interleave(red, green, blue, bgr, 5);
    System.out.println("bgr " + Digest.of(bgr) + " " + stopped);
    curve(red, green, w, h);
    System.out.println("curve " + Digest.of(green));

    int bodies = 1500;
    float[] px = new float[bodies];
    float[] py = new float[bodies];
    float[] mass = new float[bodies];
    for (int i = 0; i < bodies; i++) {
      px[i] = r.nextFloat();
      py[i] = r.nextFloat();
      mass[i] = 0.5f + r.nextFloat();
    }
    float[] ax = new float[bodies];
    float[] ay = new float[bodies];
    for (int round = 0; round < 2; round++) {
      forces(px, py, mass, ax, ay);
      for (int i = 0; i < bodies; i++) {
        px[i] += 1e-6f * ax[i];
        py[i] += 1e-6f * ay[i];
      }
      System.out.println("forces " + round + " " + Digest.of(ax) + " " + Digest.of(ay));
    }

    float[] heat = red.clone();
    float[] scratch = red.clone();
    for (int round = 0; round < 2; round++) {
      diffuse(heat, scratch, w, h, 8);
      System.out.println("heat " + round + " " + Digest.of(heat) + " " + Digest.of(scratch));
    }

    float[] signal = new float[20_003];
    for (int i = 0; i < signal.length; i++) signal[i] = (float) Math.sin(i * 0.05) + (r.nextFloat() - 0.5f) * 0.2f;
    float[] scaled = new float[signal.length];
    double[] acf = new double[48];
    float[] smoothed = new float[signal.length];
    double[] blocks = new double[(signal.length + 63) / 64];
    for (int round = 0; round < 2; round++) {
      scaleUnrolled(signal, scaled, 0.75f + round);
      autocorrelation(scaled, acf);
      System.out.println("signal " + round + " " + Digest.of(scaled) + " " + Digest.of(acf));
      smooth(scaled, smoothed, 8 + round);
      blockSums(smoothed, blocks);
      System.out.println("smooth " + round + " " + Digest.of(smoothed) + " " + Digest.of(blocks));
    }
  }
}

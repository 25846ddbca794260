package io.looplift.apps;

import java.util.Random;

/**
 * A statistics and feature-engineering pipeline: summary statistics of a column (mean, variance, min, max,
 * counts, a four-bin histogram), standardization, min-max scaling, log1p, clipping, target encoding and a
 * weighted count through category codes, a shuffle, and a matrix whose rows are standardized one row at a time. Deterministic: fixed seed, results printed as exact bits.
 */
public final class FeaturePipeline {
  private static final int N = 1 << 20;
  private static final int ROWS = 512;
  private static final int COLS = 1024;

  private FeaturePipeline() {}

  /** One column of data with its statistics as instance methods. */
  static final class Column {
    private final double[] values;

    Column(double[] values) {
      this.values = values;
    }

    double mean() {
      double[] v = values;
      double sum = 0;
      for (int i = 0; i < v.length; i++) sum += v[i];
      return sum / v.length;
    }

    double variance(double mean) {
      double[] v = values;
      double ss = 0;
      for (int i = 0; i < v.length; i++) {
        double d = v[i] - mean;
        ss += d * d;
      }
      return ss / (v.length - 1);
    }

    void standardize(double mean, double sd, double[] out) {
      double[] v = values;
      for (int i = 0; i < v.length; i++) out[i] = (v[i] - mean) / sd;
    }
  }

  static double min(double[] x) {
    double m = Double.POSITIVE_INFINITY;
    for (int i = 0; i < x.length; i++) {
      if (x[i] < m) m = x[i];
    }
    return m;
  }

  static double max(double[] x) {
    double m = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < x.length; i++) m = Math.max(m, x[i]);
    return m;
  }

  static void minMaxScale(double[] x, double lo, double hi, double[] out) {
    double range = hi - lo;
    for (int i = 0; i < x.length; i++) out[i] = (x[i] - lo) / range;
  }

  static void log1p(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = Math.log1p(x[i]);
  }

  static void clip(double[] x, double lo, double hi, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = Math.min(Math.max(x[i], lo), hi);
  }

  static int countAbove(double[] x, double threshold) {
    int count = 0;
    for (int i = 0; i < x.length; i++) {
      if (x[i] > threshold) count++;
    }
    return count;
  }

  /** Four bins over [0, 1) as four counters: several conditional accumulators in one loop. */
  static long[] quartileBins(double[] scaled) {
    long b0 = 0;
    long b1 = 0;
    long b2 = 0;
    long b3 = 0;
    for (int i = 0; i < scaled.length; i++) {
      double v = scaled[i];
      if (v < 0.25) b0++;
      else if (v < 0.5) b1++;
      else if (v < 0.75) b2++;
      else b3++;
    }
    return new long[] {b0, b1, b2, b3};
  }

  /** A histogram by scatter: the bin is computed from the data, so the writes are not element-wise. */
  static int[] histogram(double[] scaled, int bins) {
    int[] hist = new int[bins];
    for (int i = 0; i < scaled.length; i++) hist[Math.min((int) (scaled[i] * bins), bins - 1)]++;
    return hist;
  }

  /** Target encoding: each row's category replaced by that category's mean (a gather through the codes). */
  static void targetEncode(int[] category, double[] categoryMean, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = categoryMean[category[i]];
  }

  /** A weighted count of rows, each category weighing its own weight: a gather in a reduction. */
  static double weightedCount(int[] category, double[] weight) {
    double total = 0;
    for (int i = 0; i < category.length; i++) total += weight[category[i]];
    return total;
  }

  /** A column in the order of a shuffle: {@code out[i] = x[order[i]]}. */
  static void shuffle(double[] x, int[] order, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = x[order[i]];
  }

  /** Column sums over the rows of a matrix; the inner loop runs over one row. */
  static void columnSums(double[][] m, double[] sums) {
    for (int r = 0; r < m.length; r++) {
      double[] row = m[r];
      for (int c = 0; c < row.length; c++) sums[c] = sums[c] + row[c];
    }
  }

  static void standardizeRows(double[][] m, double[] mean, double[] sd) {
    for (int r = 0; r < m.length; r++) {
      double[] row = m[r];
      for (int c = 0; c < row.length; c++) row[c] = (row[c] - mean[c]) / sd[c];
    }
  }

  public static void main(String[] args) {
    Random rnd = new Random(42);
    double[] x = new double[N];
    for (int i = 0; i < N; i++) x[i] = 10 + 3 * rnd.nextGaussian();
    Column column = new Column(x);
    double mean = column.mean();
    double variance = column.variance(mean);
    double sd = Math.sqrt(variance);
    double lo = min(x);
    double hi = max(x);
    System.out.println("mean     " + Digest.exact(mean));
    System.out.println("variance " + Digest.exact(variance));
    System.out.println("min/max  " + Digest.exact(lo) + " " + Digest.exact(hi));
    System.out.println("above 13 " + countAbove(x, 13.0));

    double[] z = new double[N];
    column.standardize(mean, sd, z);
    double[] scaled = new double[N];
    minMaxScale(x, lo, hi, scaled);
    double[] logs = new double[N];
    log1p(scaled, logs);
    double[] clipped = new double[N];
    clip(z, -2.0, 2.0, clipped);
    System.out.println("z        " + Digest.of(z) + " mean " + Digest.exact(new Column(z).mean()));
    System.out.println("scaled   " + Digest.of(scaled));
    System.out.println("log1p    " + Digest.of(logs) + " max " + Digest.exact(max(logs)));
    System.out.println("clipped  " + Digest.of(clipped) + " min " + Digest.exact(min(clipped)));
    System.out.println("bins     " + java.util.Arrays.toString(quartileBins(scaled)));
    System.out.println("hist     " + java.util.Arrays.toString(histogram(scaled, 16)));

    int categories = 300;
    int[] category = new int[N];
    for (int i = 0; i < N; i++) category[i] = (int) (scaled[i] * (categories - 1));
    double[] categoryMean = new double[categories];
    double[] weight = new double[categories];
    for (int c = 0; c < categories; c++) {
      categoryMean[c] = rnd.nextGaussian();
      weight[c] = 1.0 / (1 + c);
    }
    double[] encoded = new double[N];
    targetEncode(category, categoryMean, encoded);
    System.out.println("encoded  " + Digest.of(encoded) + " weighted " + Digest.exact(weightedCount(category, weight)));
    int[] order = new int[N];
    for (int i = 0; i < N; i++) order[i] = i;
    for (int i = N - 1; i > 0; i--) {
      int k = rnd.nextInt(i + 1);
      int t = order[i];
      order[i] = order[k];
      order[k] = t;
    }
    double[] shuffled = new double[N];
    shuffle(z, order, shuffled);
    System.out.println("shuffled " + Digest.of(shuffled));

    double[][] m = new double[ROWS][COLS];
    for (int r = 0; r < ROWS; r++) {
      for (int c = 0; c < COLS; c++) m[r][c] = c + rnd.nextDouble() * (1 + r % 7);
    }
    double[] sums = new double[COLS];
    columnSums(m, sums);
    double[] colMean = new double[COLS];
    double[] colSd = new double[COLS];
    for (int c = 0; c < COLS; c++) {
      colMean[c] = sums[c] / ROWS;
      colSd[c] = 1 + 0.01 * c;
    }
    standardizeRows(m, colMean, colSd);
    System.out.println("col sums " + Digest.of(sums));
    System.out.println("rows     " + Digest.of(m[0]) + " " + Digest.of(m[ROWS / 2]) + " " + Digest.of(m[ROWS - 1]));
  }
}

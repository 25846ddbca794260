package io.looplift.apps.realcode;

import cern.colt.matrix.DoubleMatrix1D;
import cern.colt.matrix.DoubleMatrix2D;
import cern.colt.matrix.impl.DenseDoubleMatrix1D;
import cern.colt.matrix.impl.DenseDoubleMatrix2D;

/**
 * A program written against Colt 1.2.0's abstract matrix types, for {@code RealLibraryTest}: the loops of its
 * {@link Kernels} call {@code DoubleMatrix2D.getQuick} and {@code DoubleMatrix1D.getQuick}, abstract methods
 * whose implementations load after that class, and Colt's own {@code DoubleMatrix2D.toArray} calls its
 * abstract {@code getQuick} on {@code this}. Each round ends with a checksum of the column it read, out of
 * {@code Kernels}, which is then idle. Runs its rounds for at least {@code args[0]} milliseconds (default
 * 1,000), which changes nothing printed. Deterministic: results printed as exact bits.
 */
public final class ColtAbstractCalls {
  private ColtAbstractCalls() {}

  /** The loops over abstract matrices. */
  static final class Kernels {
    private Kernels() {}

    static void column(DoubleMatrix2D m, int col, double[] out) {
      for (int r = 0; r < out.length; r++) out[r] = m.getQuick(r, col) * 2.0;
    }

    static double weighted(DoubleMatrix1D v, double[] w) {
      double s = 0;
      for (int i = 0; i < w.length; i++) s += v.getQuick(i) * w[i];
      return s;
    }
  }

  /** A hash of the raw bits of every element, in order. */
  static long checksum(double[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + Double.doubleToRawLongBits(a[i]);
    return h;
  }

  public static void main(String[] args) {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 1_000;
    int n = 1 << 16;
    DoubleMatrix2D m = new DenseDoubleMatrix2D(n, 4);
    DoubleMatrix1D v = new DenseDoubleMatrix1D(n);
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      m.setQuick(i, i % 4, i * 0.001);
      v.setQuick(i, (i % 97) * 0.5);
      w[i] = 1.0 / (1 + i % 13);
    }
    double[] out = new double[n];
    double acc = 0;
    long[] sums = new long[4];
    long end = System.nanoTime() + millis * 1_000_000;
    for (int round = 0; round < 40 || System.nanoTime() < end; round++) {
      Kernels.column(m, round % 4, out);
      if (round < 40) acc += Kernels.weighted(v, w) + out[round * 31 % n];
      sums[round % 4] = checksum(out);
    }
    double[][] rows = m.viewPart(0, 0, 64, 4).toArray();
    System.out.println(Long.toHexString(Double.doubleToRawLongBits(acc)) + " "
        + Long.toHexString(Double.doubleToRawLongBits(Kernels.weighted(m.viewColumn(2), w))) + " "
        + Long.toHexString(Double.doubleToRawLongBits(rows[63][3])) + " "
        + Long.toHexString(sums[0] ^ sums[1] ^ sums[2] ^ sums[3]) + " " + out.length);
  }
}

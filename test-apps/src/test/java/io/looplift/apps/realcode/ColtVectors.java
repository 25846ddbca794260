package io.looplift.apps.realcode;

import cern.colt.matrix.DoubleMatrix1D;
import cern.colt.matrix.impl.DenseDoubleMatrix1D;
import java.util.Random;

/**
 * A program using Colt 1.2.0 as it is on Maven Central, for {@code RealLibraryTest}: dense vectors whose loops
 * count down ({@code for (int k = size; --k >= 0; )}) and step an element index by the vector's stride, here
 * 1, 2 (every other element) and -1 (a flipped view). Deterministic: fixed seed, results printed as exact bits.
 */
public final class ColtVectors {
  private ColtVectors() {}

  private static String bits(double d) {
    return Long.toHexString(Double.doubleToRawLongBits(d));
  }

  public static void main(String[] args) {
    int n = 1 << 17;
    Random r = new Random(9);
    double[] values = new double[n];
    for (int i = 0; i < n; i++) values[i] = r.nextGaussian();
    DenseDoubleMatrix1D x = new DenseDoubleMatrix1D(n);
    x.assign(values);
    DenseDoubleMatrix1D y = new DenseDoubleMatrix1D(n);
    for (int round = 0; round < 4; round++) {
      y.assign(x);
      DoubleMatrix1D evens = y.viewStrides(2);
      evens.assign(0.25 * round);
      DoubleMatrix1D flipped = x.viewFlip();
      System.out.println(round + " " + bits(y.zSum()) + " " + bits(evens.zSum()) + " " + bits(flipped.zSum())
          + " " + bits(x.zDotProduct(y)) + " " + bits(y.get(n - 1)) + " " + bits(y.get(n - 2)));
      x.assign(flipped.copy());
    }
  }
}

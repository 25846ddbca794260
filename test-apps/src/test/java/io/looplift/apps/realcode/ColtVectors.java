package io.looplift.apps.realcode;

import cern.colt.matrix.DoubleMatrix1D;
import cern.colt.matrix.DoubleMatrix2D;
import cern.colt.matrix.impl.DenseDoubleMatrix1D;
import cern.colt.matrix.impl.DenseDoubleMatrix2D;
import java.util.Random;

/**
 * A program using Colt 1.2.0 as it is on Maven Central, for {@code RealLibraryTest}: dense vectors whose loops
 * count down ({@code for (int k = size; --k >= 0; )}) and step an element index by the vector's stride, here
 * 1, 2 (every other element) and -1 (a flipped view); and matrices whose two such loops step by the row and
 * column strides, of a transposed view too. Deterministic: fixed seed, results printed as exact bits.
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

    int rows = 300;
    int cols = 200;
    DenseDoubleMatrix2D m = new DenseDoubleMatrix2D(rows, cols);
    for (int row = 0; row < rows; row++) {
      for (int col = 0; col < cols; col++) m.setQuick(row, col, r.nextDouble());
    }
    DenseDoubleMatrix2D square = new DenseDoubleMatrix2D(cols, cols);
    for (int round = 0; round < 3; round++) {
      DenseDoubleMatrix2D copy = new DenseDoubleMatrix2D(rows, cols);
      copy.assign(m);
      DoubleMatrix2D transposed = new DenseDoubleMatrix2D(cols, rows).assign(m.viewDice());
      square.assign(0.5 * round);
      System.out.println("matrix " + round + " " + bits(copy.zSum()) + " " + bits(transposed.zSum()) + " "
          + bits(transposed.getQuick(cols - 1, 7)) + " " + bits(square.zSum()));
      m.assign(transposed.viewDice());
    }
  }
}

package io.looplift.apps.realcode;

import Jama.LUDecomposition;
import Jama.Matrix;
import java.util.Random;

/**
 * A program using Jama 1.0.3 as it is on Maven Central, for {@code RealLibraryTest}: loop nests over the rows of
 * {@code double[][]} matrices. Its LU solve launches a nest once per pivot, over the rows below it, reading the
 * pivot's row as a separate argument; products, sums and norms are nests of their own. One matrix is built on
 * rows that are the same array twice, as Jama's constructor allows: scaling it in place must scale that row
 * twice, as Java does, so its nest must not run in parallel. Deterministic: fixed seed, results printed as
 * exact bits.
 */
public final class JamaMatrices {
  private JamaMatrices() {}

  /** A hash of the raw bits of every element, row by row. */
  private static String digest(double[][] a) {
    long h = 17;
    for (double[] row : a) {
      for (double d : row) h = h * 1_000_003L + Double.doubleToRawLongBits(d);
    }
    return Long.toHexString(h);
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 90;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Random r = new Random(7);
    double[][] a = new double[n][n];
    double[][] b = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i][j] = r.nextDouble() - 0.5 + (i == j ? n / 4.0 : 0);
        b[i][j] = r.nextDouble();
      }
    }
    Matrix left = new Matrix(a);
    Matrix right = new Matrix(b);
    for (int round = 0; round < rounds; round++) {
      LUDecomposition lu = new LUDecomposition(left);
      Matrix x = lu.solve(right);
      Matrix product = left.times(right);
      Matrix mixed = product.plus(left).minus(right).times(0.5).transpose();
      System.out.println(round + " " + digest(x.getArray()) + " " + digest(product.getArray()) + " "
          + digest(mixed.getArray()) + " " + Double.doubleToRawLongBits(lu.det()) + " "
          + Double.doubleToRawLongBits(product.norm1()) + " " + Double.doubleToRawLongBits(mixed.normF()));
      left = mixed.plus(Matrix.identity(n, n).times(n / 4.0));
    }
    // Rows 0 and 1 are one array: Java scales it twice.
    double[][] shared = new double[3][];
    shared[0] = b[0].clone();
    shared[1] = shared[0];
    shared[2] = b[2].clone();
    Matrix aliased = new Matrix(shared, 3, n);
    aliased.timesEquals(3.0);
    System.out.println("aliased " + digest(aliased.getArray()));
  }
}

package io.looplift.apps.realcode;

import java.util.Random;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.util.MathArrays;

/**
 * A program using Apache Commons Math 3.6.1 as it is on Maven Central, for {@code RealLibraryTest}: vector
 * norms, distances and element-wise operations whose loops call {@code FastMath} (a class with a static
 * initializer) and read the vectors' private arrays. Deterministic: fixed seed, results printed as exact bits.
 */
public final class CommonsMathVectors {
  private CommonsMathVectors() {}

  private static String bits(double d) {
    return Long.toHexString(Double.doubleToRawLongBits(d));
  }

  public static void main(String[] args) {
    int n = 1 << 17;
    Random r = new Random(3);
    double[] x = new double[n];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextGaussian();
      y[i] = r.nextGaussian();
    }
    ArrayRealVector u = new ArrayRealVector(x);
    ArrayRealVector v = new ArrayRealVector(y);
    for (int round = 0; round < 4; round++) {
      System.out.println(round + " dot " + bits(u.dotProduct(v)) + " l1 " + bits(u.getL1Norm()) + " linf "
          + bits(u.getLInfNorm()) + " dist1 " + bits(u.getL1Distance(v)) + " norm " + bits(u.getNorm()) + " ebeAdd "
          + bits(MathArrays.ebeAdd(x, y)[7]) + " distance1 " + bits(MathArrays.distance1(x, y)) + " safeNorm "
          + bits(MathArrays.safeNorm(x)));
      u = (ArrayRealVector) u.add(v).mapMultiply(0.5);
    }
  }
}

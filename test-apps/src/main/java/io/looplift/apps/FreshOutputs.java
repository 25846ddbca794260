package io.looplift.apps;

import java.util.Random;

/**
 * Element-wise operations written as Apache Commons Math's {@code MathArrays.ebeAdd} and its siblings are:
 * the result starts as a clone of the first operand, one loop updates it in place, and it is returned at
 * once. Deterministic: fixed seed, results printed as exact bits. {@code io.looplift.bench.FreshOutputsTiming}
 * times the same methods.
 */
public final class FreshOutputs {
  private FreshOutputs() {}

  /** {@code a} + {@code b}, element by element, into a clone of {@code a}. */
  public static double[] ebeAdd(double[] a, double[] b) {
    double[] result = a.clone();
    for (int i = 0; i < a.length; i++) result[i] += b[i];
    return result;
  }

  /** {@code a} * {@code b}, element by element, into a clone of {@code a}. */
  public static double[] ebeMultiply(double[] a, double[] b) {
    double[] result = a.clone();
    for (int i = 0; i < a.length; i++) result[i] *= b[i];
    return result;
  }

  /** {@code a} / {@code b}, element by element, into a clone of {@code a}. */
  public static double[] ebeDivide(double[] a, double[] b) {
    double[] result = a.clone();
    for (int i = 0; i < a.length; i++) result[i] /= b[i];
    return result;
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    Random r = new Random(11);
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = r.nextDouble() * 10 - 5;
      b[i] = r.nextDouble() + 0.5;
    }
    for (int round = 0; round < rounds; round++) {
      double[] sum = ebeAdd(a, b);
      double[] product = ebeMultiply(sum, b);
      double[] quotient = ebeDivide(product, a);
      System.out.println(round + " " + Digest.of(sum) + " " + Digest.of(product) + " " + Digest.of(quotient));
      a = quotient;
    }
  }
}

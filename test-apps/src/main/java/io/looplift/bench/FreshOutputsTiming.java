package io.looplift.bench;

import io.looplift.apps.FreshOutputs;
import java.util.Arrays;
import java.util.Random;
import java.util.function.BinaryOperator;

/**
 * Times Commons Math's {@code ebeAdd} shape ({@link FreshOutputs}: the result a clone of an operand, updated in
 * place by one loop, returned at once) as a program calls it: a few dozen calls in one JVM, each timed whole,
 * clone included. Prints each operation's median milliseconds per call after the first ten calls, then a
 * checksum of the results' bits. Run by {@code test-apps/bench/fresh-outputs.sh}, without and with the agent.
 *
 * <p>Arguments: elements (default 2^22), calls (default 40).
 */
public final class FreshOutputsTiming {
  private static final int WARM_CALLS = 10;

  private FreshOutputsTiming() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 22;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    if (calls <= WARM_CALLS) throw new IllegalArgumentException("calls must be more than " + WARM_CALLS + ": " + calls);
    Random r = new Random(5);
    double[] a = new double[n];
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = r.nextDouble();
      b[i] = r.nextDouble() + 0.5;
    }
    String[] names = {"ebeAdd", "ebeMultiply", "ebeDivide"};
    long[][] nanos = new long[names.length][calls];
    long checksum = 0;
    for (int c = 0; c < calls; c++) {
      double[] sum = timed(FreshOutputs::ebeAdd, a, b, nanos[0], c);
      double[] product = timed(FreshOutputs::ebeMultiply, sum, b, nanos[1], c);
      double[] quotient = timed(FreshOutputs::ebeDivide, product, b, nanos[2], c);
      int k = c % n;
      checksum = checksum * 31 + Double.doubleToRawLongBits(sum[k]) + Double.doubleToRawLongBits(product[k])
          + Double.doubleToRawLongBits(quotient[k]);
    }
    for (int o = 0; o < names.length; o++) {
      long[] steady = Arrays.copyOfRange(nanos[o], WARM_CALLS, calls);
      Arrays.sort(steady);
      System.out.printf("%s %.3f%n", names[o], steady[steady.length / 2] / 1e6);
    }
    System.out.println("checksum " + Long.toHexString(checksum));
  }

  private static double[] timed(BinaryOperator<double[]> op, double[] a, double[] b, long[] nanos, int call) {
    long t = System.nanoTime();
    double[] result = op.apply(a, b);
    nanos[call] = System.nanoTime() - t;
    return result;
  }
}

package io.looplift.apps;

/**
 * Integer divisions by zero and null dereferences in hot, compiled code, counted, between runs of an array
 * loop. HotSpot turns both into exceptions through its SIGFPE and SIGSEGV handlers, so a native library
 * that replaced those handlers (an OpenCL driver, LLVM inside it) would change the counts printed here, or
 * crash the program. It is an ordinary program; run it with and without the agent and compare.
 */
public final class HotTraps {
  private HotTraps() {}

  static int length(int[] a) {
    return a.length;
  }

  static int quotient(int a, int b) {
    return a / b;
  }

  static void ramp(float[] x) {
    for (int i = 0; i < x.length; i++) x[i] = i * 0.5f;
  }

  static void scale(float[] x, float k, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = x[i] * k + 1f;
  }

  /** {null dereferences, divisions by zero, sum of the rest} over {@code iterations} calls of each. */
  static long[] traps(int iterations) {
    long npe = 0;
    long arith = 0;
    long sum = 0;
    for (int i = 0; i < iterations; i++) {
      int[] a = (i % 1000 == 999) ? null : new int[3];
      try {
        sum += length(a);
      } catch (NullPointerException e) {
        npe++;
      }
      try {
        sum += quotient(i, (i % 1000 == 500) ? 0 : 3);
      } catch (ArithmeticException e) {
        arith++;
      }
    }
    return new long[] {npe, arith, sum};
  }

  public static void main(String[] args) {
    int n = 1 << 17;
    float[] x = new float[n];
    float[] y = new float[n];
    ramp(x);
    long npe = 0;
    long arith = 0;
    long sum = 0;
    long checksum = 0;
    for (int round = 0; round < 20; round++) {
      scale(x, 1.5f + round, y);
      long[] t = traps(100_000);
      npe += t[0];
      arith += t[1];
      sum += t[2];
      checksum = checksum * 31 + Float.floatToRawIntBits(y[(round * 7919) % n]);
    }
    System.out.println("null dereferences caught " + npe);
    System.out.println("divisions by zero caught " + arith);
    System.out.println("sum " + sum);
    System.out.println("scaled " + Long.toHexString(checksum));
  }
}

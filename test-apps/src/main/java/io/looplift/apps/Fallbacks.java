package io.looplift.apps;

import java.util.Arrays;
import java.util.Random;

/**
 * Loops that must stay as they are, or fall back to their original bytecode at run time, and still print
 * exactly what they print without an agent: a carried dependency, a non-linear recurrence, an early exit,
 * a loop that runs off the end of its output part-way (the partial writes are printed), an output that
 * aliases its input one element further on, a null array, a division by zero, a loop that prints, object
 * arrays, a scattered write, a static field updated in the loop, a monitor and an allocation in the loop,
 * and a second index whose stride of 0 makes every iteration write one element.
 * Next to them, an in-place loop (same array, same offset) that may be offloaded.
 */
public final class Fallbacks {
  private static final int N = 1 << 18;

  /** Updated inside a loop: a heap write that is not an array element. */
  private static long total;

  private static final Object LOCK = new Object();

  private Fallbacks() {}

  /** a[i] depends on the a[i - 1] just written. */
  static void prefixSum(float[] a) {
    for (int i = 1; i < a.length; i++) a[i] += a[i - 1];
  }

  static void recurrence(double[] x) {
    for (int i = 1; i < x.length; i++) x[i] = Math.sqrt(x[i - 1] + x[i]);
  }

  /** Copies until the first negative element. */
  static int copyUntilNegative(double[] in, double[] out) {
    int i;
    for (i = 0; i < in.length; i++) {
      if (in[i] < 0) break;
      out[i] = in[i] * 2;
    }
    return i;
  }

  /**
   * A gather whose indices hold one out of range part-way: the guard, which checks every index first, lets the
   * original loop run, which throws where Java does after writing the elements before it.
   */
  static void gatherInto(double[] x, int[] order, double[] out) {
    for (int i = 0; i < out.length; i++) out[i] = x[order[i]] * 0.5;
  }

  /** Throws ArrayIndexOutOfBoundsException once {@code i} reaches {@code out.length}, after writing that much. */
  static void tripleInto(int[] in, int[] out) {
    int n = in.length;
    for (int i = 0; i < n; i++) out[i] = in[i] * 3;
  }

  /**
   * Averages neighbours one place on. Called with {@code dst == src}, each element reads the one written in
   * the previous iteration, which turns it into an exponential moving average.
   */
  static void averageShifted(float[] src, float[] dst, int n) {
    for (int i = 0; i < n; i++) dst[i + 1] = 0.5f * src[i] + 0.5f * src[i + 1];
  }

  /** Called with a null {@code in}. */
  static void addOne(double[] in, double[] out, int n) {
    for (int i = 0; i < n; i++) out[i] = in[i] + 1;
  }

  /**
   * Writes every {@code stride}-th element from {@code off} through a second index. Called with stride 0, every
   * iteration writes the same element and the last one's value must win: never run at once.
   */
  static void spread(double[] in, double[] out, int off, int stride) {
    int j = off;
    for (int i = 0; i < in.length; i++) {
      out[j] = in[i] * 2;
      j += stride;
    }
  }

  /** Called with a zero divisor part-way through. */
  static void quotients(int[] num, int[] den, int[] out) {
    for (int i = 0; i < num.length; i++) out[i] = num[i] / den[i];
  }

  static void printFirst(int[] a, int count) {
    for (int i = 0; i < count; i++) System.out.println("  a[" + i + "] = " + a[i]);
  }

  static void lengths(String[] words, int[] out) {
    for (int i = 0; i < words.length; i++) out[i] = words[i].length();
  }

  static void unbox(Integer[] boxed, int[] out) {
    for (int i = 0; i < boxed.length; i++) out[i] = boxed[i] * 2;
  }

  static int[] histogram(int[] values, int bins) {
    int[] hist = new int[bins];
    for (int i = 0; i < values.length; i++) hist[values[i] % bins]++;
    return hist;
  }

  static void accumulateTotal(int[] a) {
    for (int i = 0; i < a.length; i++) total += a[i];
  }

  static void lockedScale(int[] a, int[] out) {
    for (int i = 0; i < a.length; i++) {
      synchronized (LOCK) {
        out[i] = a[i] * 7;
      }
    }
  }

  static void boxEach(int[] a, Object[] out) {
    for (int i = 0; i < a.length; i++) out[i] = new int[] {a[i]};
  }

  /** Same array as input and output at the same offset: allowed, and offloadable. */
  static void squareInPlace(double[] a) {
    for (int i = 0; i < a.length; i++) a[i] = a[i] * a[i];
  }

  private static void report(String what, Throwable e) {
    System.out.println(what + " threw " + e.getClass().getName() + ": " + e.getMessage());
  }

  public static void main(String[] args) {
    Random rnd = new Random(99);
    int[] ints = new int[N];
    float[] floats = new float[N];
    double[] doubles = new double[N];
    for (int i = 0; i < N; i++) {
      ints[i] = rnd.nextInt(1000);
      floats[i] = rnd.nextFloat();
      doubles[i] = rnd.nextDouble();
    }

    float[] prefix = floats.clone();
    prefixSum(prefix);
    System.out.println("prefix sum " + Digest.of(prefix) + " last " + Digest.exact(prefix[N - 1]));

    double[] rec = doubles.clone();
    recurrence(rec);
    System.out.println("recurrence " + Digest.of(rec));

    double[] signed = doubles.clone();
    signed[N / 2 + 17] = -1;
    double[] copied = new double[N];
    System.out.println("copied until negative " + copyUntilNegative(signed, copied) + " " + Digest.of(copied));

    int[] shortOut = new int[N - 5];
    try {
      tripleInto(ints, shortOut);
      System.out.println("tripleInto did not throw");
    } catch (ArrayIndexOutOfBoundsException e) {
      report("tripleInto", e);
    }
    System.out.println("  partial " + Digest.of(shortOut) + " last " + shortOut[N - 6]);

    int[] order = new int[N];
    for (int i = 0; i < N; i++) order[i] = (i * 7919) % N;
    order[N / 3] = N + 11;
    double[] gathered = new double[N];
    try {
      gatherInto(doubles, order, gathered);
      System.out.println("gatherInto did not throw");
    } catch (ArrayIndexOutOfBoundsException e) {
      report("gatherInto", e);
    }
    System.out.println("  partial " + Digest.of(gathered));

    float[] smear = floats.clone();
    averageShifted(smear, smear, N - 1);
    System.out.println("aliased average " + Digest.of(smear) + " " + Digest.exact(smear[N - 1]));

    double[] spread = new double[8];
    spread(doubles, spread, 5, 0);
    System.out.println("spread with stride 0 " + Digest.of(spread));

    double[] untouched = new double[N];
    Arrays.fill(untouched, 3.0);
    try {
      addOne(null, untouched, N);
      System.out.println("addOne did not throw");
    } catch (NullPointerException e) {
      report("addOne", e);
    }
    System.out.println("  after " + Digest.of(untouched));

    int[] den = new int[N];
    Arrays.fill(den, 7);
    den[N - 100] = 0;
    int[] quot = new int[N];
    try {
      quotients(ints, den, quot);
      System.out.println("quotients did not throw");
    } catch (ArithmeticException e) {
      report("quotients", e);
    }
    System.out.println("  partial " + Digest.of(quot) + " " + quot[N - 101] + " " + quot[N - 100]);

    System.out.println("first values:");
    printFirst(ints, 4);

    String[] words = new String[N];
    Integer[] boxed = new Integer[N];
    for (int i = 0; i < N; i++) {
      words[i] = Integer.toString(ints[i]);
      boxed[i] = ints[i];
    }
    int[] lens = new int[N];
    lengths(words, lens);
    int[] twice = new int[N];
    unbox(boxed, twice);
    System.out.println("lengths " + Digest.of(lens) + " unboxed " + Digest.of(twice));
    System.out.println("histogram " + Arrays.toString(histogram(ints, 7)));
    accumulateTotal(ints);
    System.out.println("total " + total);
    int[] locked = new int[N];
    lockedScale(ints, locked);
    Object[] cells = new Object[N];
    boxEach(ints, cells);
    System.out.println("locked " + Digest.of(locked) + " cells " + ((int[]) cells[N - 1])[0]);

    double[] squares = doubles.clone();
    squareInPlace(squares);
    System.out.println("squared in place " + Digest.of(squares));
  }
}

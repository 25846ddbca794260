package io.looplift.apps;

import java.util.Random;

/**
 * Four threads, each running the same chain of loops on its own arrays many times (one loop written
 * inside the thread's lambda, the rest in static methods); joined, and the results printed in thread
 * order. Deterministic: each thread's data comes from its own fixed seed and nothing is shared.
 */
public final class ManyThreads {
  private static final int THREADS = 4;
  private static final int N = 1 << 18;
  private static final int ROUNDS = 12;

  private ManyThreads() {}

  static void relu(float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = x[i] > 0f ? x[i] : 0f;
  }

  static double dot(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) sum += a[i] * b[i];
    return sum;
  }

  /** Moves {@code a} a little towards {@code b}, in place. */
  static void relax(float[] a, float[] b, float rate) {
    for (int i = 0; i < a.length; i++) a[i] = a[i] + rate * (b[i] - a[i]);
  }

  static long checksum(float[] x) {
    long bits = 0;
    for (int i = 0; i < x.length; i++) bits ^= Float.floatToRawIntBits(x[i]) * (long) (i + 1);
    return bits;
  }

  public static void main(String[] args) throws InterruptedException {
    double[] dots = new double[THREADS];
    String[] digests = new String[THREADS];
    Thread[] threads = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Random rnd = new Random(100 + t);
      float[] a = new float[N];
      float[] b = new float[N];
      float[] c = new float[N];
      for (int i = 0; i < N; i++) {
        a[i] = rnd.nextFloat() - 0.5f;
        b[i] = rnd.nextFloat() - 0.5f;
        c[i] = rnd.nextFloat() - 0.25f;
      }
      float[] t1 = new float[N];
      float[] t2 = new float[N];
      threads[t] = new Thread(() -> {
        double acc = 0;
        for (int round = 0; round < ROUNDS; round++) {
          float bias = 0.01f * round;
          for (int i = 0; i < N; i++) t1[i] = a[i] * b[i] + c[i] - bias;
          relu(t1, t2);
          acc += dot(t2, a);
          relax(a, t2, 0.125f);
        }
        dots[id] = acc;
        digests[id] = Digest.of(a) + " " + Digest.of(t2) + " " + Long.toHexString(checksum(t1));
      }, "worker-" + t);
    }
    for (Thread thread : threads) thread.start();
    for (Thread thread : threads) thread.join();
    for (int t = 0; t < THREADS; t++) {
      System.out.println("thread " + t + " dot " + Digest.exact(dots[t]) + " " + digests[t]);
    }
  }
}

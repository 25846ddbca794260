package io.looplift.apps;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A program that keeps running: one round of array loops (two maps and a reduction, in {@link Kernels}) for
 * every line it reads from standard input, each round's results printed as exact bit patterns, until standard
 * input closes. What it prints depends only on how many lines it read, never on timing, so it suits attaching
 * LoopLift to a running JVM. Its last line is where {@code main} is: its class, which holds a loop too, must
 * keep its file and line although LoopLift attaches while {@code main} runs. The loops of a round are in a
 * class of their own, idle between two rounds.
 */
public final class Rounds {
  private Rounds() {}

  /** The loops of a round. */
  static final class Kernels {
    private Kernels() {}

    static void scale(float[] x, float k, float[] y) {
      for (int i = 0; i < x.length; i++) y[i] = k * x[i] + 0.5f;
    }

    static void mix(float[] x, float[] y, float[] out) {
      for (int i = 0; i < x.length; i++) out[i] = x[i] * y[i] - y[i];
    }

    static double sum(float[] x) {
      double s = 0;
      for (int i = 0; i < x.length; i++) s += x[i];
      return s;
    }
  }

  public static void main(String[] args) throws IOException {
    int n = 1 << 16;
    float[] x = new float[n];
    float[] y = new float[n];
    float[] z = new float[n];
    for (int i = 0; i < n; i++) x[i] = (i % 1000) * 0.001f;
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int round = 0;
    while (in.readLine() != null) {
      Kernels.scale(x, 1 + round * 0.25f, y);
      Kernels.mix(x, y, z);
      double s = Kernels.sum(z);
      System.out.println("round " + round + " " + Digest.of(y) + " " + Digest.of(z) + " "
          + Long.toHexString(Double.doubleToRawLongBits(s)));
      round++;
    }
    System.out.println(round + " rounds");
    // A frame that ran while its class was redefined would print without its file and line.
    System.out.println("at " + new Throwable().getStackTrace()[0]);
  }
}

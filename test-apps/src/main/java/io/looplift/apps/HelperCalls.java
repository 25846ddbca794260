package io.looplift.apps;

import java.util.Random;

/**
 * Loops that call helpers rather than doing their arithmetic inline: a static method of a utility class,
 * a static method of a class whose initialization prints a line (its place in the output must not move),
 * and a private method on {@code this}. Deterministic: fixed seed, results printed as exact bits.
 */
public final class HelperCalls {
  private final double weight;
  private final double[] bias;

  private HelperCalls(double weight, double[] bias) {
    this.weight = weight;
    this.bias = bias;
  }

  static void toCelsius(double[] fahrenheit, double[] celsius) {
    for (int i = 0; i < fahrenheit.length; i++) celsius[i] = Units.celsius(fahrenheit[i]);
  }

  static void calibrate(double[] raw, double[] out) {
    for (int i = 0; i < raw.length; i++) out[i] = Calibration.apply(raw[i]);
  }

  void weigh(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = weighted(x[i], i);
  }

  private double weighted(double v, int i) {
    return weight * v + bias[i];
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 18;
    Random r = new Random(5);
    double[] f = new double[n];
    double[] bias = new double[n];
    for (int i = 0; i < n; i++) {
      f[i] = r.nextDouble() * 120 - 20;
      bias[i] = r.nextDouble() - 0.5;
    }
    double[] c = new double[n];
    double[] calibrated = new double[n];
    double[] w = new double[n];
    HelperCalls weights = new HelperCalls(0.75, bias);
    System.out.println("start");
    for (int round = 0; round < 3; round++) {
      toCelsius(f, c);
      calibrate(c, calibrated);
      weights.weigh(calibrated, w);
      System.out.println(round + " " + Digest.of(c) + " " + Digest.of(calibrated) + " " + Digest.of(w));
      f = w.clone();
    }
  }
}

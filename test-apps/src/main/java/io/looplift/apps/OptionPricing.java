package io.looplift.apps;

import java.util.Random;

/**
 * Prices a book of European options with the Black-Scholes formula and computes closed-form batch figures
 * over it (forward prices, intrinsic values, payoffs against a strike ladder, put-call parity error, total
 * premium, in-the-money count). Deterministic: fixed seed, results printed as exact bits.
 */
public final class OptionPricing {
  private static final int N = 1 << 20;
  private static final double VOL = 0.3;

  /** A ladder of strikes 50.000, 50.001, ...; built by a loop in the static initializer. */
  private static final double[] LADDER;

  static {
    int n = 1 << 18;
    double[] ladder = new double[n];
    for (int i = 0; i < n; i++) ladder[i] = 50.0 + 0.001 * i;
    LADDER = ladder;
  }

  private OptionPricing() {}

  /** Cumulative normal distribution (Abramowitz-Stegun 26.2.17), as in the classic benchmark. */
  static double cnd(double x) {
    double k = 1.0 / (1.0 + 0.2316419 * Math.abs(x));
    double poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + 1.330274429 * k))));
    double w = 1.0 - 0.3989422804014327 * Math.exp(-x * x / 2) * poly;
    return x < 0 ? 1.0 - w : w;
  }

  static void blackScholes(double[] spot, double[] strike, double[] years, double rate, double vol,
      double[] call, double[] put) {
    int n = spot.length;
    for (int i = 0; i < n; i++) {
      double sqrtT = Math.sqrt(years[i]);
      double d1 = (Math.log(spot[i] / strike[i]) + (rate + 0.5 * vol * vol) * years[i]) / (vol * sqrtT);
      double d2 = d1 - vol * sqrtT;
      double disc = strike[i] * Math.exp(-rate * years[i]);
      call[i] = spot[i] * cnd(d1) - disc * cnd(d2);
      put[i] = disc * cnd(-d2) - spot[i] * cnd(-d1);
    }
  }

  static void forwards(double[] spot, double[] years, double rate, double[] fwd) {
    for (int i = 0; i < spot.length; i++) fwd[i] = spot[i] * Math.exp(rate * years[i]);
  }

  static void intrinsic(double[] spot, double[] strike, double[] out) {
    for (int i = 0; i < spot.length; i++) out[i] = Math.max(spot[i] - strike[i], 0.0);
  }

  static void ladderPayoffs(double[] spot, double[] ladder, double[] out) {
    int n = ladder.length;
    for (int i = 0; i < n; i++) out[i] = Math.max(spot[i] - ladder[i], 0.0);
  }

  static double totalPremium(double[] price) {
    double sum = 0;
    for (int i = 0; i < price.length; i++) sum += price[i];
    return sum;
  }

  /** Largest |C - P - (S - K e^{-rT})|: zero up to rounding when the prices are consistent. */
  static double parityError(double[] call, double[] put, double[] spot, double[] strike, double[] years, double rate) {
    double worst = 0;
    for (int i = 0; i < call.length; i++) {
      worst = Math.max(worst, Math.abs(call[i] - put[i] - (spot[i] - strike[i] * Math.exp(-rate * years[i]))));
    }
    return worst;
  }

  static int inTheMoney(double[] spot, double[] strike) {
    int count = 0;
    for (int i = 0; i < spot.length; i++) {
      if (spot[i] > strike[i]) count++;
    }
    return count;
  }

  public static void main(String[] args) {
    Random rnd = new Random(20240611L);
    double[] spot = new double[N];
    double[] strike = new double[N];
    double[] years = new double[N];
    for (int i = 0; i < N; i++) {
      spot[i] = 10 + 90 * rnd.nextDouble();
      strike[i] = 10 + 90 * rnd.nextDouble();
      years[i] = 0.25 + 2 * rnd.nextDouble();
    }
    double[] call = new double[N];
    double[] put = new double[N];
    double[] fwd = new double[N];
    double[] intr = new double[N];
    double[] pay = new double[LADDER.length];
    double[] rates = {0.01, 0.02, 0.05};
    for (double rate : rates) {
      blackScholes(spot, strike, years, rate, VOL, call, put);
      forwards(spot, years, rate, fwd);
      System.out.println("rate " + rate);
      System.out.println("  call[0]        " + Digest.exact(call[0]));
      System.out.println("  put[N-1]       " + Digest.exact(put[N - 1]));
      System.out.println("  call premium   " + Digest.exact(totalPremium(call)));
      System.out.println("  put premium    " + Digest.exact(totalPremium(put)));
      System.out.println("  parity error   " + Digest.exact(parityError(call, put, spot, strike, years, rate)));
      System.out.println("  digests        " + Digest.of(call) + " " + Digest.of(put) + " " + Digest.of(fwd));
    }
    intrinsic(spot, strike, intr);
    ladderPayoffs(spot, LADDER, pay);
    System.out.println("intrinsic total  " + Digest.exact(totalPremium(intr)) + " " + Digest.of(intr));
    System.out.println("ladder payoffs   " + Digest.exact(totalPremium(pay)) + " " + Digest.of(pay));
    System.out.println("ladder           " + Digest.of(LADDER));
    System.out.println("in the money     " + inTheMoney(spot, strike));
  }
}

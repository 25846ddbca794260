package io.looplift.executors.select;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Durations for people: {@code 850 ns}, {@code 12.5 µs}, {@code 3.20 ms}, {@code 1.50 s}. Without
 * {@code String.format}, whose first use in a JVM sets up its locale data (about 30 ms), at a program's first
 * decision.
 */
final class Durations {
  private static final MathContext THREE_DIGITS = new MathContext(3, RoundingMode.HALF_UP);

  private Durations() {}

  static String format(double nanos) {
    if (nanos < 1e3) return Math.round(nanos) + " ns";
    if (nanos < 1e6) return threeDigits(nanos / 1e3) + " µs";
    if (nanos < 1e9) return threeDigits(nanos / 1e6) + " ms";
    return threeDigits(nanos / 1e9) + " s";
  }

  /** {@code v}, at least 1, to three significant digits: {@code 1.50}, {@code 12.5}, {@code 850}, {@code 1000}. */
  private static String threeDigits(double v) {
    BigDecimal rounded = new BigDecimal(v).round(THREE_DIGITS);
    int integerDigits = rounded.precision() - rounded.scale();
    return rounded.setScale(Math.max(0, 3 - integerDigits), RoundingMode.HALF_UP).toPlainString();
  }
}

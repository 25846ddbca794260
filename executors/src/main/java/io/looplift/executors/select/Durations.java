package io.looplift.executors.select;

import java.util.Locale;

/** Durations for people: {@code 850 ns}, {@code 12.5 µs}, {@code 3.20 ms}, {@code 1.50 s}. */
final class Durations {
  private Durations() {}

  static String format(double nanos) {
    if (nanos < 1e3) return String.format(Locale.ROOT, "%.0f ns", nanos);
    if (nanos < 1e6) return String.format(Locale.ROOT, "%.3g µs", nanos / 1e3);
    if (nanos < 1e9) return String.format(Locale.ROOT, "%.3g ms", nanos / 1e6);
    return String.format(Locale.ROOT, "%.3g s", nanos / 1e9);
  }
}

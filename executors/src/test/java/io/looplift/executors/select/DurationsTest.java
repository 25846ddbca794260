package io.looplift.executors.select;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void threeSignificantDigitsInTheLargestUnitBelowTheValue() {
    assertEquals("850 ns", Durations.format(849.6));
    assertEquals("0 ns", Durations.format(0));
    assertEquals("1.00 µs", Durations.format(1000));
    assertEquals("12.5 µs", Durations.format(12_500));
    assertEquals("230 µs", Durations.format(230_000));
    assertEquals("3.20 ms", Durations.format(3_200_000));
    assertEquals("10.0 ms", Durations.format(9_999_700), "rounded up to a new digit, still three");
    assertEquals("1000 µs", Durations.format(999_999));
    assertEquals("1.50 s", Durations.format(1.5e9));
    assertEquals("4800 s", Durations.format(4.8e12));
  }
}

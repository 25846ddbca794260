package io.looplift.runtime;

/**
 * How far verify mode lets an executor's floating-point value be from the reference executor's: within
 * {@code abs + |reference| * scale}. {@link #EXACT} (both 0) means bit for bit. Either way NaN equals NaN:
 * Java does not promise which NaN an operation produces, so no program can rely on its bits.
 */
record Bound(double abs, double scale) {
  static final Bound EXACT = new Bound(0, 0);

  boolean exact() {
    return abs == 0 && scale == 0;
  }

  /** True when {@code actual} may stand for {@code expected}; neither is NaN, and they differ. */
  boolean admits(double actual, double expected) {
    // An infinity against anything else, or infinities of opposite signs, make the difference infinite or
    // NaN: never admitted, unless the bound itself is infinite (a sum whose terms overflowed).
    return !exact() && Math.abs(actual - expected) <= abs + Math.abs(expected) * scale;
  }
}

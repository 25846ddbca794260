package io.looplift.analyzer;

/** A class with a static initializer: calling its helper initializes it, so no loop may inline the call. */
public final class HelperTables {
  /** Read by {@link #weigh}: the loop's class reads it before the loop, once this class is initialized. */
  public static final double[] WEIGHTS = {0.25, 0.75};

  private HelperTables() {}

  /** {@code v} times the second weight. */
  public static double weigh(double v) {
    return v * WEIGHTS[1];
  }
}

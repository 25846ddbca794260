package io.looplift.apps;

/**
 * Sensor gains computed when the class is initialized, which it announces on stdout: a loop that calls
 * {@link #apply} must not run it earlier, later or more often than Java does.
 */
public final class Calibration {
  /** Gain and offset, in that order. */
  public static final double[] GAIN_AND_OFFSET = load();

  private Calibration() {}

  private static double[] load() {
    System.out.println("calibration loaded");
    return new double[] {1.0625, -0.125};
  }

  /** {@code v} calibrated. */
  public static double apply(double v) {
    return v * GAIN_AND_OFFSET[0] + GAIN_AND_OFFSET[1];
  }
}

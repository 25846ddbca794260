package io.looplift.apps;

/** Unit conversions: static helpers of a class without state. */
public final class Units {
  private Units() {}

  /** Degrees Fahrenheit in degrees Celsius. */
  public static double celsius(double fahrenheit) {
    return (fahrenheit - 32) * 5 / 9;
  }
}

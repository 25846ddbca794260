package io.looplift.analyzer;

/** Static helpers of a class other than the loops' ({@link HelperShapes}), which the analyzer may inline. */
public final class HelperMath {
  /** A static field without an initializer (this class has none): a loop's class may read it before the loop. */
  public static double factor;
  /** A private one: a helper that reads it is not inlined, since the loop's class could not read it. */
  private static double offset;

  private HelperMath() {}

  /** {@code v} limited to {@code [lo, hi]}. */
  public static double clamp(double v, double lo, double hi) {
    return v < lo ? lo : v > hi ? hi : v;
  }

  /** The dot product of {@code a} and {@code b}, in index order: a helper with a loop. */
  public static double dot(double[] a, double[] b) {
    double s = 0;
    for (int k = 0; k < a.length; k++) s += a[k] * b[k];
    return s;
  }

  /** A public helper that calls a private one of its own class. */
  public static double squareOfClamped(double v) {
    return square(clamp(v, -1, 1));
  }

  private static double square(double v) {
    return v * v;
  }

  /** Reads a public static field. */
  public static double scaled(double v) {
    return v * factor;
  }

  /** Reads a private static field. */
  public static double shifted(double v) {
    return v + offset;
  }
}

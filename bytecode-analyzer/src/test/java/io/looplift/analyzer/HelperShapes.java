package io.looplift.analyzer;

/**
 * Loops that call helpers: static ones of other classes ({@link HelperMath}, {@link HelperTables}), and
 * methods on {@code this} that no subclass can replace (inlined), or that one could (rejected).
 */
public class HelperShapes {
  private final double scale;
  private final double[] weights;

  HelperShapes(double scale, double[] weights) {
    this.scale = scale;
    this.weights = weights;
  }

  public static void clampAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.clamp(x[i], -0.5, 0.5);
  }

  public static void rowDots(double[][] rows, double[] v, double[] out) {
    for (int i = 0; i < rows.length; i++) out[i] = HelperMath.dot(rows[i], v);
  }

  public static void squares(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.squareOfClamped(x[i]);
  }

  public static void scaledAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.scaled(x[i]);
  }

  public static void shiftedAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperMath.shifted(x[i]);
  }

  public static void tabled(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = HelperTables.weigh(x[i]);
  }

  public static void weighted(double scale, double[] weights, double[] x, double[] out) {
    new HelperShapes(scale, weights).weighAll(x, out);
  }

  void weighAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = weigh(x[i], i);
  }

  /** Private, reading fields of {@code this}: inlined. */
  private double weigh(double v, int i) {
    return scale * v * weights[i];
  }

  public static void finalHelper(double scale, double[] x, double[] out) {
    new HelperShapes(scale, null).shiftAll(x, out);
  }

  void shiftAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = shift(x[i]);
  }

  /** Final: inlined. */
  final double shift(double v) {
    return v + scale;
  }

  public static void overridable(double scale, double[] x, double[] out) {
    new HelperShapes(scale, null).applyAll(x, out);
  }

  void applyAll(double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = apply(x[i]);
  }

  /** Neither private nor final, in a class that is not final: a subclass may override it. */
  double apply(double v) {
    return v * scale;
  }

  public static void onAnother(double scale, double[] x, double[] out) {
    new HelperShapes(1, null).otherAll(new HelperShapes(scale, null), x, out);
  }

  void otherAll(HelperShapes other, double[] x, double[] out) {
    for (int i = 0; i < x.length; i++) out[i] = other.shift(x[i]);
  }
}

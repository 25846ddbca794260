package io.looplift.apps;

/**
 * The class {@link IsolatedLauncher} loads through its own class loader. Only that loader ever loads it,
 * so its loops can only be offloaded if classes of any loader reach LoopLift.
 */
public final class LoaderGuest {
  private LoaderGuest() {}

  static void ramp(double[] x) {
    for (int i = 0; i < x.length; i++) x[i] = 0.5 * i - 1000.0;
  }

  static void polynomial(double[] x, double[] y) {
    for (int i = 0; i < x.length; i++) y[i] = (x[i] * x[i] + 3.0) * x[i] - 7.0;
  }

  static double sum(double[] y) {
    double s = 0;
    for (int i = 0; i < y.length; i++) s += y[i];
    return s;
  }

  /** Runs the loops over {@code n} elements and describes the result exactly; called by reflection. */
  public static String run(int n) {
    double[] x = new double[n];
    double[] y = new double[n];
    ramp(x);
    polynomial(x, y);
    return "sum " + sum(y) + " y[n-1] " + Long.toHexString(Double.doubleToRawLongBits(y[n - 1]));
  }
}

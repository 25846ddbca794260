package io.looplift.executors.select;

import java.util.List;

/**
 * Estimates what a candidate takes for a given amount of work from the {@link Point}s measured for it: a
 * piecewise-linear function of work through the points. Between two measured sizes that is exact for the
 * usual cost shape {@code overhead + perUnit * work} (a thread pool's or a device's fixed cost plus its rate),
 * so that a kernel measured at 10^4 and 10^7 elements needs no measurement at 10^5 to tell which side of the
 * crossover it is on, and it follows a knee (a cache level, a device filling up) from one measured size to
 * the next. Outside the measured sizes it extends the nearest segment, never falling with more work nor rising
 * with less, and never below the proportional estimate below the smallest size; such an estimate is not
 * {@code bracketed}, and the selection measures instead of trusting it while it may.
 */
final class CostModel {
  private CostModel() {}

  /**
   * An estimate.
   *
   * @param nanos the estimated time
   * @param bracketed measured sizes lie on both sides of the work's size class (or at it)
   * @param persisted every point the estimate used was loaded from an earlier run
   */
  record Estimate(double nanos, boolean bracketed, boolean persisted) {}

  /** The estimate for {@code work} from {@code points} (ordered by size class), or null when there are none. */
  static Estimate estimate(List<Point> points, long work) {
    int n = points.size();
    if (n == 0) return null;
    int c = Size.classOf(work);
    Point first = points.get(0);
    Point last = points.get(n - 1);
    boolean bracketed = first.sizeClass() <= c && c <= last.sizeClass();
    if (n == 1) return new Estimate(proportional(first, work), bracketed, first.persisted());
    Point a;
    Point b;
    double nanos;
    if (work <= first.work()) {
      a = first;
      b = points.get(1);
      // The segment through the two smallest sizes, extended down: an affine fit with the overhead as its
      // intercept. Costs do not grow with less work (a falling segment is noise), and a negative overhead (a
      // super-linear segment) would make small launches look free: never below scaling the smallest one down.
      nanos = Math.max(a.nanos() - Math.max(0, slope(a, b)) * (double) (a.work() - work), proportional(a, work));
    } else if (work >= last.work()) {
      a = points.get(n - 2);
      b = last;
      // Noise can make the last segment fall; costs do not fall with more work.
      nanos = b.nanos() + Math.max(0, slope(a, b)) * (double) (work - b.work());
    } else {
      int k = 0;
      while (points.get(k + 1).work() < work) k++;
      a = points.get(k);
      b = points.get(k + 1);
      nanos = line(a, b, work);
    }
    return new Estimate(nanos, bracketed, a.persisted() && b.persisted());
  }

  private static double proportional(Point p, long work) {
    return p.nanos() * ((double) work / p.work());
  }

  private static double slope(Point a, Point b) {
    return (double) (b.nanos() - a.nanos()) / (double) (b.work() - a.work());
  }

  private static double line(Point a, Point b, long work) {
    return a.nanos() + slope(a, b) * (double) (work - a.work());
  }
}

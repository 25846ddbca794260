package io.looplift.ir;

import java.util.Objects;

/**
 * The iteration space of a counted loop: the induction variable starts at a run-time value, changes by
 * {@code step} after each iteration, and the loop continues while {@code i cond limit}.
 */
public record LoopShape(Cond cond, int step) {
  public LoopShape {
    if (step == 0) throw new IllegalArgumentException("step 0");
  }

  /**
   * The number of iterations from {@code start} to {@code limit}, or -1 when the loop would not end the
   * way a counted loop does (it would wrap around, never meet a {@code !=} limit, or run more than
   * {@link Integer#MAX_VALUE} times). -1 means: run the original loop.
   */
  public long trips(int start, int limit) {
    long s = start;
    long l = limit;
    if (cond == Cond.NE) {
      long d = l - s;
      if (d != 0 && (Long.signum(d) != Integer.signum(step) || d % step != 0)) return -1;
      return d / step > Integer.MAX_VALUE ? -1 : d / step;
    }
    boolean up = cond == Cond.LT || cond == Cond.LE;
    boolean down = cond == Cond.GT || cond == Cond.GE;
    if (!(up && step > 0) && !(down && step < 0)) return -1;
    long span = switch (cond) {
      case LT -> l - s;
      case LE -> l - s + 1;
      case GT -> s - l;
      default -> s - l + 1; // GE
    };
    if (span <= 0) return 0;
    long abs = Math.abs((long) step);
    long trips = (span + abs - 1) / abs;
    long after = s + trips * step;
    // The JVM loop ends only if the value after the last iteration fails the test without wrapping.
    if (after > Integer.MAX_VALUE || after < Integer.MIN_VALUE || trips > Integer.MAX_VALUE) return -1;
    return trips;
  }


  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof LoopShape s && cond == s.cond && step == s.step; }

  @Override
  public int hashCode() { return 31 * Objects.hashCode(cond) + step; }
}

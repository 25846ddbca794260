package io.looplift.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LoopShapeTest {
  /** Counts the iterations of {@code for (i = start; i cond limit; i += step)} the way the JVM runs it. */
  private static long javaTrips(Cond cond, int step, int start, int limit) {
    long n = 0;
    for (int i = start; test(cond, i, limit); i += step) {
      if (++n > 10_000) return -1; // does not end like a counted loop
    }
    return n;
  }

  private static boolean test(Cond c, int i, int limit) {
    return switch (c) {
      case LT -> i < limit; case LE -> i <= limit; case GT -> i > limit; case GE -> i >= limit;
      case NE -> i != limit; case EQ -> i == limit;
    };
  }

  @Test
  void tripsMatchTheJvmLoopOrRefuse() {
    int[] values = {-7, -1, 0, 1, 2, 5, 9, 100};
    for (Cond c : new Cond[] {Cond.LT, Cond.LE, Cond.GT, Cond.GE, Cond.NE}) {
      for (int step : new int[] {1, 2, 3, -1, -2, -5}) {
        for (int start : values) {
          for (int limit : values) {
            long got = new LoopShape(c, step).trips(start, limit);
            long want = javaTrips(c, step, start, limit);
            String what = c + " step " + step + " from " + start + " to " + limit;
            // Refusing (-1) is always safe: the original loop runs. Counting must be exact.
            if (got >= 0) assertEquals(want, got, what);
            boolean counted = (step > 0 && (c == Cond.LT || c == Cond.LE)) || (step < 0 && (c == Cond.GT || c == Cond.GE));
            if (counted) assertEquals(want, got, what);
          }
        }
      }
    }
  }

  @Test
  void loopsThatWrapAroundAreRefused() {
    assertEquals(-1, new LoopShape(Cond.LE, 1).trips(0, Integer.MAX_VALUE));
    assertEquals(-1, new LoopShape(Cond.LT, 2).trips(0, Integer.MAX_VALUE));
    assertEquals(-1, new LoopShape(Cond.GE, -1).trips(0, Integer.MIN_VALUE));
    assertEquals(-1, new LoopShape(Cond.NE, 1).trips(Integer.MIN_VALUE, Integer.MAX_VALUE));
    assertEquals(Integer.MAX_VALUE, new LoopShape(Cond.LT, 1).trips(0, Integer.MAX_VALUE));
  }
}

package io.looplift.runtime;

import io.looplift.ir.Evaluator;
import io.looplift.ir.Type;
import java.util.Arrays;

/**
 * Compares a launch's results with the reference executor's, value by value, each within its
 * {@link Bound}: keeps the first value beyond its bound and the worst difference seen. Not thread-safe: one
 * per checked launch.
 *
 * <p>The worst difference is counted in ulps for floating-point values (how many representable values lie
 * between them, {@code -0.0} one away from {@code 0.0}; a NaN against a number counts as
 * {@link Long#MAX_VALUE}) and as the absolute difference for integers, saturating.
 */
final class ResultComparison {
  /** The first value out of bound: where it is, and the reference's and the executor's values, for people. */
  record Difference(String location, String expected, String actual) {}

  private long worst;
  private Difference first;

  /**
   * Compares {@code region} of the executor's array {@code actual} with the reference's {@code expected},
   * both holding {@code type} elements. Returns false at the first element beyond {@code bound}.
   */
  boolean region(WrittenRegion region, Type type, Object actual, Object expected, Bound bound) {
    int from = region.from();
    while (from < region.to()) {
      int i = mismatch(actual, expected, from, region.to());
      if (i < 0) return true;
      long a = Evaluator.load(actual, type, i);
      long e = Evaluator.load(expected, type, i);
      if (!admits(type, a, e, bound)) {
        first = new Difference(region.where(i), format(type, e), format(type, a));
        return false;
      }
      from = i + 1;
    }
    return true;
  }

  /** Compares reduction {@code k}'s value (raw bits of {@code type}); false when it is beyond {@code bound}. */
  boolean reduction(int k, Type type, long actual, long expected, Bound bound) {
    if (admits(type, actual, expected, bound)) return true;
    first = new Difference("reduction " + k, format(type, expected), format(type, actual));
    return false;
  }

  /** The largest difference seen so far, 0 when every value was the same. */
  long worst() {
    return worst;
  }

  /** The value that was beyond its bound, or null when none was. */
  Difference first() {
    return first;
  }

  /** True when {@code actual} may stand for {@code expected}; counts the difference towards the worst. */
  private boolean admits(Type type, long actual, long expected, Bound bound) {
    switch (type.stackType()) {
      case FLOAT -> {
        float a = Float.intBitsToFloat((int) actual);
        float e = Float.intBitsToFloat((int) expected);
        if ((int) actual == (int) expected || (Float.isNaN(a) && Float.isNaN(e))) return true;
        worst = Math.max(worst, Float.isNaN(a) || Float.isNaN(e) ? Long.MAX_VALUE
            : Math.abs(ordered((int) actual) - ordered((int) expected)));
        return bound.admits(a, e);
      }
      case DOUBLE -> {
        double a = Double.longBitsToDouble(actual);
        double e = Double.longBitsToDouble(expected);
        if (actual == expected || (Double.isNaN(a) && Double.isNaN(e))) return true;
        worst = Math.max(worst, Double.isNaN(a) || Double.isNaN(e) ? Long.MAX_VALUE
            : distance(ordered(actual), ordered(expected)));
        return bound.admits(a, e);
      }
      case LONG -> {
        if (actual == expected) return true;
        worst = Math.max(worst, distance(actual, expected));
        return false;
      }
      default -> {
        if ((int) actual == (int) expected) return true;
        worst = Math.max(worst, Math.abs((long) (int) actual - (int) expected));
        return false;
      }
    }
  }

  /** Float bits mapped to a line on which adjacent floats are adjacent integers ({@code -0.0} is -1). */
  private static long ordered(int bits) {
    return bits >= 0 ? bits : -1L - (bits & 0x7fffffff);
  }

  /** Double bits mapped the same way. */
  private static long ordered(long bits) {
    return bits >= 0 ? bits : -1L - (bits & Long.MAX_VALUE);
  }

  private static long distance(long x, long y) {
    long d = x - y;
    // Overflow when the signs differ and the result's sign is not x's.
    if (((x ^ y) & (x ^ d)) < 0 || d == Long.MIN_VALUE) return Long.MAX_VALUE;
    return Math.abs(d);
  }

  /** The index of the first element of {@code [from, to)} where the arrays differ (NaN equals NaN), or -1. */
  private static int mismatch(Object actual, Object expected, int from, int to) {
    int k;
    if (actual instanceof float[] a) {
      k = Arrays.mismatch(a, from, to, (float[]) expected, from, to);
    } else if (actual instanceof double[] a) {
      k = Arrays.mismatch(a, from, to, (double[]) expected, from, to);
    } else if (actual instanceof int[] a) {
      k = Arrays.mismatch(a, from, to, (int[]) expected, from, to);
    } else if (actual instanceof long[] a) {
      k = Arrays.mismatch(a, from, to, (long[]) expected, from, to);
    } else if (actual instanceof short[] a) {
      k = Arrays.mismatch(a, from, to, (short[]) expected, from, to);
    } else if (actual instanceof char[] a) {
      k = Arrays.mismatch(a, from, to, (char[]) expected, from, to);
    } else if (actual instanceof byte[] a) {
      k = Arrays.mismatch(a, from, to, (byte[]) expected, from, to);
    } else {
      k = Arrays.mismatch((boolean[]) actual, from, to, (boolean[]) expected, from, to);
    }
    return k < 0 ? -1 : from + k;
  }

  /** A value for people: floating-point values with their bits, since a difference may be in the last one. */
  private static String format(Type type, long bits) {
    return switch (type) {
      case FLOAT -> Float.intBitsToFloat((int) bits) + " (0x" + Integer.toHexString((int) bits) + ")";
      case DOUBLE -> Double.longBitsToDouble(bits) + " (0x" + Long.toHexString(bits) + ")";
      case BOOLEAN -> String.valueOf(bits != 0);
      case LONG -> String.valueOf(bits);
      default -> String.valueOf((int) bits);
    };
  }
}

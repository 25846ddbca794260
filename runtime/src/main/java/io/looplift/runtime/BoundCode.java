package io.looplift.runtime;

import io.looplift.ir.Cond;

/**
 * An inner loop's start or limit compiled for its guard: an {@link AffineCode}, or the least or the greatest
 * of two bounds ({@code Math.min(i + 64, n)}), or one of two chosen by comparing two affine forms
 * ({@code b == last ? n - 64 * b : 64}). Its range over a box of the enclosing variables is exact where the
 * box is one point (as where the guard enumerates the outermost variable); elsewhere a superset, as interval
 * arithmetic gives: a choice the comparison does not settle over the whole box spans both of its arms. Every
 * affine piece must stay in the int range over the box: Java computes it in wrapping int arithmetic before it
 * compares or picks, and only within that range are the two the same. Immutable.
 */
final class BoundCode {
  private enum Kind { AFFINE, MIN, MAX, EITHER }

  private final Kind kind;
  /** The affine form, or the left side of the comparison that chooses. */
  private final AffineCode affine;
  /** The right side of the comparison that chooses; null for other kinds. */
  private final AffineCode right;
  private final Cond cond;
  /** The two bounds of a min or max; of a choice, the one taken where the comparison holds, and the other. */
  private final BoundCode x;
  private final BoundCode y;

  private BoundCode(Kind kind, AffineCode affine, AffineCode right, Cond cond, BoundCode x, BoundCode y) {
    this.kind = kind;
    this.affine = affine;
    this.right = right;
    this.cond = cond;
    this.x = x;
    this.y = y;
  }

  static BoundCode affine(AffineCode a) {
    return new BoundCode(Kind.AFFINE, a, null, null, null, null);
  }

  static BoundCode min(BoundCode x, BoundCode y) {
    return new BoundCode(Kind.MIN, null, null, null, x, y);
  }

  static BoundCode max(BoundCode x, BoundCode y) {
    return new BoundCode(Kind.MAX, null, null, null, x, y);
  }

  /** {@code left cond right ? ifTrue : ifFalse}. */
  static BoundCode choice(AffineCode left, Cond cond, AffineCode right, BoundCode ifTrue, BoundCode ifFalse) {
    return new BoundCode(Kind.EITHER, left, right, cond, ifTrue, ifFalse);
  }

  /**
   * The least value over the box {@code lo[v] <= v <= hi[v]}.
   *
   * @throws ArithmeticException when a piece leaves the int range
   */
  long min(long[] slots, long[] lo, long[] hi) {
    return switch (kind) {
      case AFFINE -> inInt(affine, slots, lo, hi, true);
      case MIN -> Math.min(x.min(slots, lo, hi), y.min(slots, lo, hi));
      case MAX -> Math.max(x.min(slots, lo, hi), y.min(slots, lo, hi));
      case EITHER -> {
        Boolean holds = holds(slots, lo, hi);
        yield holds == null ? Math.min(x.min(slots, lo, hi), y.min(slots, lo, hi))
            : (holds ? x : y).min(slots, lo, hi);
      }
    };
  }

  /**
   * The greatest value over the box.
   *
   * @throws ArithmeticException when a piece leaves the int range
   */
  long max(long[] slots, long[] lo, long[] hi) {
    return switch (kind) {
      case AFFINE -> inInt(affine, slots, lo, hi, false);
      case MIN -> Math.min(x.max(slots, lo, hi), y.max(slots, lo, hi));
      case MAX -> Math.max(x.max(slots, lo, hi), y.max(slots, lo, hi));
      case EITHER -> {
        Boolean holds = holds(slots, lo, hi);
        yield holds == null ? Math.max(x.max(slots, lo, hi), y.max(slots, lo, hi))
            : (holds ? x : y).max(slots, lo, hi);
      }
    };
  }

  /** Whether the comparison holds everywhere in the box (true), nowhere (false), or that is not known (null). */
  private Boolean holds(long[] slots, long[] lo, long[] hi) {
    long a = inInt(affine, slots, lo, hi, true);
    long b = inInt(affine, slots, lo, hi, false);
    long c = inInt(right, slots, lo, hi, true);
    long d = inInt(right, slots, lo, hi, false);
    return switch (cond) {
      case LT -> b < c ? Boolean.TRUE : a >= d ? Boolean.FALSE : null;
      case LE -> b <= c ? Boolean.TRUE : a > d ? Boolean.FALSE : null;
      case GT -> a > d ? Boolean.TRUE : b <= c ? Boolean.FALSE : null;
      case GE -> a >= d ? Boolean.TRUE : b < c ? Boolean.FALSE : null;
      case EQ -> a == b && b == c && c == d ? Boolean.TRUE : b < c || a > d ? Boolean.FALSE : null;
      case NE -> a == b && b == c && c == d ? Boolean.FALSE : b < c || a > d ? Boolean.TRUE : null;
    };
  }

  /** The least ({@code least}) or greatest value of {@code a} over the box, which must lie in the int range. */
  private static long inInt(AffineCode a, long[] slots, long[] lo, long[] hi, boolean least) {
    long min = a.min(slots, lo, hi);
    long max = a.max(slots, lo, hi);
    if (min < Integer.MIN_VALUE || max > Integer.MAX_VALUE) throw new ArithmeticException("int overflow");
    return least ? min : max;
  }

  /** True when the bound has one value for the whole launch: no variable appears, and no choice is made. */
  boolean isInvariant() {
    return switch (kind) {
      case AFFINE -> affine.isInvariant();
      case MIN, MAX -> x.isInvariant() && y.isInvariant();
      case EITHER -> false;
    };
  }
}

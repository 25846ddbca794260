package io.looplift.runtime;

import io.looplift.ir.Cond;

/**
 * An inner loop's start or limit compiled for its guard: an {@link AffineCode}, or a function of such forms
 * that grows or shrinks with each of its operands: the least or the greatest of two ({@code Math.min(i + 64, n)}),
 * one of two chosen by comparing two affine forms ({@code b == last ? n - 64 * b : 64}), sums, differences,
 * negations, products with a constant and quotients by a positive constant (the trip count of an unrolled
 * loop, where its tail starts), and conversions between int and long. Its range over a box of the enclosing
 * variables is exact where the box is one point (as where the guard enumerates the outermost variable);
 * elsewhere a superset, as interval arithmetic gives: a choice the comparison does not settle over the whole
 * box spans both of its arms. Every int value it computes, affine pieces included, must stay in the int range
 * over the box: Java computes them in wrapping int arithmetic, and only within that range are the two the
 * same. Immutable.
 */
final class BoundCode {
  private enum Kind { AFFINE, CONSTANT, MIN, MAX, CHOICE, ADD, SUB, NEG, MUL, DIV, CONVERT }

  private final Kind kind;
  /** The affine form, or the left side of the comparison that chooses. */
  private final AffineCode affine;
  /** The right side of the comparison that chooses; null for other kinds. */
  private final AffineCode right;
  private final Cond cond;
  /** The operands; of a choice, the one taken where the comparison holds, and the other. */
  private final BoundCode x;
  private final BoundCode y;
  /** A constant's value, a product's factor or a quotient's divisor. */
  private final long constant;
  /** Whether the value is an int: it must then stay in the int range. */
  private final boolean isInt;

  private BoundCode(Kind kind, AffineCode affine, AffineCode right, Cond cond, BoundCode x, BoundCode y,
      long constant, boolean isInt) {
    this.kind = kind;
    this.affine = affine;
    this.right = right;
    this.cond = cond;
    this.x = x;
    this.y = y;
    this.constant = constant;
    this.isInt = isInt;
  }

  static BoundCode affine(AffineCode a) {
    return new BoundCode(Kind.AFFINE, a, null, null, null, null, 0, true);
  }

  static BoundCode constant(long value) {
    return new BoundCode(Kind.CONSTANT, null, null, null, null, null, value, false);
  }

  static BoundCode min(BoundCode x, BoundCode y, boolean isInt) {
    return new BoundCode(Kind.MIN, null, null, null, x, y, 0, isInt);
  }

  static BoundCode max(BoundCode x, BoundCode y, boolean isInt) {
    return new BoundCode(Kind.MAX, null, null, null, x, y, 0, isInt);
  }

  /** {@code left cond right ? ifTrue : ifFalse}. */
  static BoundCode choice(AffineCode left, Cond cond, AffineCode right, BoundCode ifTrue, BoundCode ifFalse) {
    return new BoundCode(Kind.CHOICE, left, right, cond, ifTrue, ifFalse, 0, true);
  }

  static BoundCode sum(BoundCode x, BoundCode y, boolean isInt) {
    return new BoundCode(Kind.ADD, null, null, null, x, y, 0, isInt);
  }

  static BoundCode difference(BoundCode x, BoundCode y, boolean isInt) {
    return new BoundCode(Kind.SUB, null, null, null, x, y, 0, isInt);
  }

  static BoundCode negation(BoundCode x, boolean isInt) {
    return new BoundCode(Kind.NEG, null, null, null, x, null, 0, isInt);
  }

  static BoundCode product(BoundCode x, long factor, boolean isInt) {
    return new BoundCode(Kind.MUL, null, null, null, x, null, factor, isInt);
  }

  /** {@code x / divisor}, {@code divisor > 0}: Java's division, rounding toward zero, never decreases with x. */
  static BoundCode quotient(BoundCode x, long divisor, boolean isInt) {
    if (divisor <= 0) throw new IllegalArgumentException("divisor " + divisor);
    return new BoundCode(Kind.DIV, null, null, null, x, null, divisor, isInt);
  }

  /** {@code x} as an int ({@code isInt}, where it must fit) or as a long. */
  static BoundCode conversion(BoundCode x, boolean isInt) {
    return new BoundCode(Kind.CONVERT, null, null, null, x, null, 0, isInt);
  }

  /**
   * The least value over the box {@code lo[v] <= v <= hi[v]}.
   *
   * @throws ArithmeticException when an int value leaves the int range, or a long one the long range
   */
  long min(long[] slots, long[] lo, long[] hi) {
    return extreme(slots, lo, hi, true);
  }

  /**
   * The greatest value over the box.
   *
   * @throws ArithmeticException when an int value leaves the int range, or a long one the long range
   */
  long max(long[] slots, long[] lo, long[] hi) {
    return extreme(slots, lo, hi, false);
  }

  private long extreme(long[] slots, long[] lo, long[] hi, boolean least) {
    long v = switch (kind) {
      case AFFINE -> least ? affine.min(slots, lo, hi) : affine.max(slots, lo, hi);
      case CONSTANT -> constant;
      case MIN -> Math.min(x.extreme(slots, lo, hi, least), y.extreme(slots, lo, hi, least));
      case MAX -> Math.max(x.extreme(slots, lo, hi, least), y.extreme(slots, lo, hi, least));
      case CHOICE -> {
        Boolean holds = holds(slots, lo, hi);
        if (holds != null) yield (holds ? x : y).extreme(slots, lo, hi, least);
        long a = x.extreme(slots, lo, hi, least);
        long b = y.extreme(slots, lo, hi, least);
        yield least ? Math.min(a, b) : Math.max(a, b);
      }
      case ADD -> Math.addExact(x.extreme(slots, lo, hi, least), y.extreme(slots, lo, hi, least));
      case SUB -> Math.subtractExact(x.extreme(slots, lo, hi, least), y.extreme(slots, lo, hi, !least));
      case NEG -> Math.negateExact(x.extreme(slots, lo, hi, !least));
      case MUL -> Math.multiplyExact(x.extreme(slots, lo, hi, constant >= 0 == least), constant);
      case DIV -> x.extreme(slots, lo, hi, least) / constant;
      case CONVERT -> x.extreme(slots, lo, hi, least);
    };
    if (isInt && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) throw new ArithmeticException("int overflow");
    return v;
  }

  /** Whether the comparison holds everywhere in the box (true), nowhere (false), or that is not known (null). */
  private Boolean holds(long[] slots, long[] lo, long[] hi) {
    long a = inInt(affine.min(slots, lo, hi));
    long b = inInt(affine.max(slots, lo, hi));
    long c = inInt(right.min(slots, lo, hi));
    long d = inInt(right.max(slots, lo, hi));
    return switch (cond) {
      case LT -> b < c ? Boolean.TRUE : a >= d ? Boolean.FALSE : null;
      case LE -> b <= c ? Boolean.TRUE : a > d ? Boolean.FALSE : null;
      case GT -> a > d ? Boolean.TRUE : b <= c ? Boolean.FALSE : null;
      case GE -> a >= d ? Boolean.TRUE : b < c ? Boolean.FALSE : null;
      case EQ -> a == b && b == c && c == d ? Boolean.TRUE : b < c || a > d ? Boolean.FALSE : null;
      case NE -> a == b && b == c && c == d ? Boolean.FALSE : b < c || a > d ? Boolean.TRUE : null;
    };
  }

  private static long inInt(long v) {
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw new ArithmeticException("int overflow");
    return v;
  }

  /** True when the bound has one value for the whole launch: no variable appears, and no choice is made. */
  boolean isInvariant() {
    return switch (kind) {
      case AFFINE -> affine.isInvariant();
      case CONSTANT -> true;
      case CHOICE -> false;
      case MIN, MAX, ADD, SUB -> x.isInvariant() && y.isInvariant();
      case NEG, MUL, DIV, CONVERT -> x.isInvariant();
    };
  }
}

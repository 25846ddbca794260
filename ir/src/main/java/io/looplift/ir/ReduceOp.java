package io.looplift.ir;

/**
 * Associative combining operators recognized in accumulator updates. A reduction with one of these
 * can be split into per-chunk partials (starting from {@link #identity}) combined in order with
 * {@link #combine}; the result is bit-identical to the sequential loop except for floating-point ADD and
 * MUL, which are only reassociated when the user opts in.
 */
public enum ReduceOp {
  ADD, MUL, AND, OR, XOR,
  /** {@code Math.min} (NaN wins, -0.0 below 0.0). */
  MIN,
  /** {@code Math.max}. */
  MAX,
  /** {@code if (e < acc) acc = e}: the first least element; NaN elements never replace. */
  SELECT_LT,
  /** {@code if (e <= acc) acc = e}: the last least element. */
  SELECT_LE,
  /** {@code if (e > acc) acc = e}: the first greatest element. */
  SELECT_GT,
  /** {@code if (e >= acc) acc = e}: the last greatest element. */
  SELECT_GE;

  /** True when splitting changes floating-point results (only with {@code reductions=reassociate}). */
  public boolean reassociates(Type t) {
    return t.isFloating() && (this == ADD || this == MUL);
  }

  /** Raw bits of the value {@code x} with {@code combine(x, e) == e} for every element e that can win. */
  public long identity(Type t) {
    return switch (this) {
      case ADD -> t == Type.FLOAT ? Float.floatToRawIntBits(-0.0f) : t == Type.DOUBLE ? Double.doubleToRawLongBits(-0.0) : 0;
      case MUL -> t == Type.FLOAT ? Float.floatToRawIntBits(1f) : t == Type.DOUBLE ? Double.doubleToRawLongBits(1d) : 1;
      case AND -> -1;
      case OR, XOR -> 0;
      case MIN, SELECT_LT, SELECT_LE -> extreme(t, true);
      case MAX, SELECT_GT, SELECT_GE -> extreme(t, false);
    };
  }

  private static long extreme(Type t, boolean positive) {
    return switch (t) {
      case INT -> positive ? Integer.MAX_VALUE : Integer.MIN_VALUE;
      case LONG -> positive ? Long.MAX_VALUE : Long.MIN_VALUE;
      case FLOAT -> Float.floatToRawIntBits(positive ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY);
      case DOUBLE -> Double.doubleToRawLongBits(positive ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
      default -> throw new IllegalArgumentException("reduction over " + t);
    };
  }

  /** The accumulator after folding in element {@code e}: raw bits in, raw bits out. */
  public long combine(Type t, long acc, long e) {
    return switch (this) {
      case ADD -> Evaluator.binary(BinaryOp.ADD, t, acc, e);
      case MUL -> Evaluator.binary(BinaryOp.MUL, t, acc, e);
      case AND -> Evaluator.binary(BinaryOp.AND, t, acc, e);
      case OR -> Evaluator.binary(BinaryOp.OR, t, acc, e);
      case XOR -> Evaluator.binary(BinaryOp.XOR, t, acc, e);
      case MIN -> Evaluator.binary(BinaryOp.MIN, t, acc, e);
      case MAX -> Evaluator.binary(BinaryOp.MAX, t, acc, e);
      case SELECT_LT -> less(t, e, acc) ? e : acc;
      case SELECT_LE -> less(t, e, acc) || equal(t, e, acc) ? e : acc;
      case SELECT_GT -> less(t, acc, e) ? e : acc;
      case SELECT_GE -> less(t, acc, e) || equal(t, e, acc) ? e : acc;
    };
  }

  /** The relation a SELECT_* operator tests between element and accumulator. */
  public Cond selectCond() {
    return switch (this) {
      case SELECT_LT -> Cond.LT;
      case SELECT_LE -> Cond.LE;
      case SELECT_GT -> Cond.GT;
      case SELECT_GE -> Cond.GE;
      default -> throw new IllegalStateException(this + " is not a select reduction");
    };
  }

  private static boolean less(Type t, long a, long b) {
    return switch (t) {
      case FLOAT -> Float.intBitsToFloat((int) a) < Float.intBitsToFloat((int) b);
      case DOUBLE -> Double.longBitsToDouble(a) < Double.longBitsToDouble(b);
      case INT -> (int) a < (int) b;
      default -> a < b;
    };
  }

  private static boolean equal(Type t, long a, long b) {
    return switch (t) {
      case FLOAT -> Float.intBitsToFloat((int) a) == Float.intBitsToFloat((int) b);
      case DOUBLE -> Double.longBitsToDouble(a) == Double.longBitsToDouble(b);
      case INT -> (int) a == (int) b;
      default -> a == b;
    };
  }
}

package io.looplift.ir;

/** Relations of {@link Compare} nodes, on INT or LONG operands (floating compares go through CMPL/CMPG). */
public enum Cond {
  EQ, NE, LT, GE, GT, LE;

  /** The relation that holds exactly when this one does not. */
  public Cond negate() {
    return switch (this) {
      case EQ -> NE; case NE -> EQ; case LT -> GE; case GE -> LT; case GT -> LE; case LE -> GT;
    };
  }

  /** The relation with operands swapped: {@code a < b} iff {@code b > a}. */
  public Cond mirror() {
    return switch (this) {
      case EQ -> EQ; case NE -> NE; case LT -> GT; case GE -> LE; case GT -> LT; case LE -> GE;
    };
  }

  public boolean test(int c) {
    return switch (this) {
      case EQ -> c == 0; case NE -> c != 0; case LT -> c < 0; case GE -> c >= 0; case GT -> c > 0; case LE -> c <= 0;
    };
  }
}

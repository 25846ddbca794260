package io.looplift.ir;

/** A BOOLEAN condition {@code x cond y} over INT or LONG operands. */
public record Compare(Cond cond, Node x, Node y) implements Node {
  public Compare {
    if (x.type() != y.type() || (x.type() != Type.INT && x.type() != Type.LONG)) {
      throw new IllegalArgumentException("compare of " + x.type() + " and " + y.type());
    }
  }

  /** Builds the condition, folded when both operands are constant. */
  public static Node of(Cond cond, Node x, Node y) {
    if (x instanceof Const cx && y instanceof Const cy) {
      return Const.ofBoolean(cond.test(Long.compare(cx.bits(), cy.bits())));
    }
    return new Compare(cond, x, y);
  }

  @Override
  public Type type() { return Type.BOOLEAN; }

  @Override
  public String toString() { return "(" + x + " " + cond.name().toLowerCase() + " " + y + ")"; }
}

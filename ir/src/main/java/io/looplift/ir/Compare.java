package io.looplift.ir;

/** A BOOLEAN condition {@code x cond y} over INT or LONG operands. */
public final class Compare implements Node {
  private final Cond cond;
  private final Node x;
  private final Node y;
  private final int hash;

  public Compare(Cond cond, Node x, Node y) {
    if (x.type() != y.type() || (x.type() != Type.INT && x.type() != Type.LONG)) {
      throw new IllegalArgumentException("compare of " + x.type() + " and " + y.type());
    }
    this.cond = cond;
    this.x = x;
    this.y = y;
    this.hash = java.util.Objects.hash(cond, x, y);
  }

  public Cond cond() { return cond; }

  public Node x() { return x; }

  public Node y() { return y; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Compare o && hash == o.hash && cond == o.cond && x.equals(o.x) && y.equals(o.y);
  }

  @Override
  public int hashCode() { return hash; }

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

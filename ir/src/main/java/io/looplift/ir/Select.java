package io.looplift.ir;

/** {@code cond ? ifTrue : ifFalse}; both arms are pure, so both may be evaluated. */
public final class Select implements Node {
  private final Node cond;
  private final Node ifTrue;
  private final Node ifFalse;
  private final int hash;

  public Select(Node cond, Node ifTrue, Node ifFalse) {
    if (cond.type() != Type.BOOLEAN || ifTrue.type() != ifFalse.type()) {
      throw new IllegalArgumentException("select of " + cond.type() + ", " + ifTrue.type() + ", " + ifFalse.type());
    }
    this.cond = cond;
    this.ifTrue = ifTrue;
    this.ifFalse = ifFalse;
    this.hash = java.util.Objects.hash(cond, ifTrue, ifFalse);
  }

  public Node cond() { return cond; }

  public Node ifTrue() { return ifTrue; }

  public Node ifFalse() { return ifFalse; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Select o && hash == o.hash && cond.equals(o.cond) && ifTrue.equals(o.ifTrue) && ifFalse.equals(o.ifFalse);
  }

  @Override
  public int hashCode() { return hash; }

  /** Builds the select, folded for constant conditions, equal arms and negated conditions. */
  public static Node of(Node cond, Node ifTrue, Node ifFalse) {
    if (cond instanceof Const c) return c.booleanValue() ? ifTrue : ifFalse;
    if (ifTrue.equals(ifFalse)) return ifTrue;
    if (cond instanceof Unary u && u.op() == UnaryOp.NOT) return new Select(u.x(), ifFalse, ifTrue);
    if (ifTrue.equals(Const.TRUE) && ifFalse.equals(Const.FALSE)) return cond;
    return new Select(cond, ifTrue, ifFalse);
  }

  @Override
  public Type type() { return ifTrue.type(); }

  @Override
  public String toString() { return "(" + cond + " ? " + ifTrue + " : " + ifFalse + ")"; }
}

package io.looplift.ir;

/** {@code cond ? ifTrue : ifFalse}; both arms are pure, so both may be evaluated. */
public record Select(Node cond, Node ifTrue, Node ifFalse) implements Node {
  public Select {
    if (cond.type() != Type.BOOLEAN || ifTrue.type() != ifFalse.type()) {
      throw new IllegalArgumentException("select of " + cond.type() + ", " + ifTrue.type() + ", " + ifFalse.type());
    }
  }

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

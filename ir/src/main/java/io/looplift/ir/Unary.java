package io.looplift.ir;

/** A unary operation; see {@link UnaryOp}. */
public record Unary(UnaryOp op, Node x) implements Node {
  public Unary {
    if ((op == UnaryOp.NOT) != (x.type() == Type.BOOLEAN)) throw new IllegalArgumentException(op + " of " + x.type());
    if (op == UnaryOp.SQRT && x.type() != Type.DOUBLE) throw new IllegalArgumentException("sqrt of " + x.type());
  }

  /** Builds {@code op x}, folded when {@code x} is constant or a double negation. */
  public static Node of(UnaryOp op, Node x) {
    if (x instanceof Const c) return Const.ofBits(x.type(), Evaluator.unary(op, x.type(), c.bits()));
    if (op == UnaryOp.NOT && x instanceof Unary u && u.op == UnaryOp.NOT) return u.x;
    return new Unary(op, x);
  }

  @Override
  public Type type() { return x.type(); }

  @Override
  public String toString() { return op.name().toLowerCase() + "(" + x + ")"; }
}

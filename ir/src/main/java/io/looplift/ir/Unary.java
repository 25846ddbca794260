package io.looplift.ir;

/** A unary operation; see {@link UnaryOp}. */
public final class Unary implements Node {
  private final UnaryOp op;
  private final Node x;
  private final int hash;

  public Unary(UnaryOp op, Node x) {
    if ((op == UnaryOp.NOT) != (x.type() == Type.BOOLEAN)) throw new IllegalArgumentException(op + " of " + x.type());
    if (op == UnaryOp.SQRT && x.type() != Type.DOUBLE) throw new IllegalArgumentException("sqrt of " + x.type());
    this.op = op;
    this.x = x;
    this.hash = java.util.Objects.hash(op, x);
  }

  public UnaryOp op() { return op; }

  public Node x() { return x; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Unary o && hash == o.hash && op == o.op && x.equals(o.x);
  }

  @Override
  public int hashCode() { return hash; }

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

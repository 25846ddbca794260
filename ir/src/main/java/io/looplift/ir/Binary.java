package io.looplift.ir;

/**
 * A binary operation; see {@link BinaryOp}. Operands have the same type, except shift counts (INT) and
 * the three-way compares (result INT).
 */
public final class Binary implements Node {
  private final BinaryOp op;
  private final Node x;
  private final Node y;
  private final int hash;

  public Binary(BinaryOp op, Node x, Node y) {
    Type want = op.isShift() ? Type.INT : x.type();
    if (y.type() != want) throw new IllegalArgumentException(op + " of " + x.type() + " and " + y.type());
    if (x.type() == Type.BOOLEAN && op != BinaryOp.AND && op != BinaryOp.OR && op != BinaryOp.XOR) {
      throw new IllegalArgumentException(op + " of booleans");
    }
    this.op = op;
    this.x = x;
    this.y = y;
    this.hash = java.util.Objects.hash(op, x, y);
  }

  public BinaryOp op() { return op; }

  public Node x() { return x; }

  public Node y() { return y; }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof Binary o && hash == o.hash && op == o.op && x.equals(o.x) && y.equals(o.y);
  }

  @Override
  public int hashCode() { return hash; }

  /** Builds {@code x op y}, folding constants and the identities that are exact in Java. */
  public static Node of(BinaryOp op, Node x, Node y) {
    if (x instanceof Const cx && y instanceof Const cy && !(isIntegralDivision(op, x.type()) && cy.bits() == 0)) {
      Type t = op.isCompare() ? Type.INT : x.type();
      return Const.ofBits(t, Evaluator.binary(op, x.type(), cx.bits(), cy.bits()));
    }
    if (x.type() == Type.BOOLEAN) {
      if (op == BinaryOp.AND) {
        if (x.equals(Const.TRUE)) return y;
        if (y.equals(Const.TRUE)) return x;
        if (x.equals(Const.FALSE) || y.equals(Const.FALSE)) return Const.FALSE;
      }
      if (op == BinaryOp.OR) {
        if (x.equals(Const.FALSE)) return y;
        if (y.equals(Const.FALSE)) return x;
        if (x.equals(Const.TRUE) || y.equals(Const.TRUE)) return Const.TRUE;
      }
    } else if (x.type().isIntegral() && x instanceof Const cx && !op.isShift()) {
      long v = cx.bits();
      if (v == 0 && (op == BinaryOp.ADD || op == BinaryOp.OR || op == BinaryOp.XOR)) return y;
      if (v == 1 && op == BinaryOp.MUL) return y;
    }
    if (x.type().isIntegral() && y instanceof Const cy) {
      // Exact for wrapping integers only; 0.0 + x is not x for x = -0.0, so floats are left alone.
      long v = cy.bits();
      if (v == 0 && (op == BinaryOp.ADD || op == BinaryOp.SUB || op == BinaryOp.OR || op == BinaryOp.XOR || op.isShift())) {
        return x;
      }
      if (v == 1 && (op == BinaryOp.MUL || op == BinaryOp.DIV)) return x;
    }
    return new Binary(op, x, y);
  }

  private static boolean isIntegralDivision(BinaryOp op, Type t) {
    return t.isIntegral() && (op == BinaryOp.DIV || op == BinaryOp.REM);
  }

  @Override
  public Type type() { return op.isCompare() ? Type.INT : x.type(); }

  @Override
  public String toString() { return op.name().toLowerCase() + "(" + x + ", " + y + ")"; }
}

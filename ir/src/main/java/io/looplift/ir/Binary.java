package io.looplift.ir;

/**
 * A binary operation; see {@link BinaryOp}. Operands have the same type, except shift counts (INT) and
 * the three-way compares (result INT).
 */
public record Binary(BinaryOp op, Node x, Node y) implements Node {
  public Binary {
    Type want = op.isShift() ? Type.INT : x.type();
    if (y.type() != want) throw new IllegalArgumentException(op + " of " + x.type() + " and " + y.type());
    if (x.type() == Type.BOOLEAN && op != BinaryOp.AND && op != BinaryOp.OR && op != BinaryOp.XOR) {
      throw new IllegalArgumentException(op + " of booleans");
    }
  }

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
    } else if (x.type().isIntegral() && y instanceof Const cy) {
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

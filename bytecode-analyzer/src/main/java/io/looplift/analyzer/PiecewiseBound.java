package io.looplift.analyzer;

import io.looplift.ir.Affine;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Select;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.function.UnaryOperator;

/**
 * The start or limit of an inner loop that is affine only piece by piece: the least or greatest of affine
 * forms ({@code Math.min(i + 64, n)} of a blocked loop, {@code Math.max(0, i - r)} of a window clamped at
 * the edges), a choice between them by a comparison of affine forms ({@code b == last ? n - b * 64 : 64}), or
 * where the loop before stopped (an unrolled loop's tail starts at its start plus its trip count times four).
 * Guards bound such a bound from its pieces' ranges ({@code io.looplift.runtime.BoundCode}). Stateless.
 */
final class PiecewiseBound {
  private PiecewiseBound() {}

  /**
   * {@code bound} with the conditional forms of min and max ({@code a > b ? b : a}, as helpers like
   * {@code FastMath.min} are written, inlined) made {@link BinaryOp#MIN} and {@link BinaryOp#MAX}, and sums
   * and differences with affine forms moved into the pieces ({@code min(a, b) + c} as {@code min(a + c, b + c)}).
   * The two agree wherever each piece's value stays in the int range, which guards check of every piece.
   */
  static Node canonical(Node bound) {
    return Nodes.rewrite(bound, PiecewiseBound::step);
  }

  /**
   * True when guards can bound {@code bound}: an affine int form, or a function of such forms that grows or
   * shrinks with each operand (min, max, a choice by a comparison of affine forms, sums, differences,
   * negations, products with a constant, quotients by a positive constant, conversions between int and long),
   * as {@code io.looplift.runtime.BoundCode} follows them.
   */
  static boolean guardable(Node bound) {
    boolean isInt = bound.type() == Type.INT;
    if (isInt && Affine.of(bound) != null) return true;
    if (!isInt && bound.type() != Type.LONG) return false;
    if (bound instanceof Const) return true;
    if (bound instanceof Convert c) return (c.x().type() == Type.INT || c.x().type() == Type.LONG) && guardable(c.x());
    if (bound instanceof Unary u) return u.op() == UnaryOp.NEG && guardable(u.x());
    if (bound instanceof Select s) {
      return isInt && s.cond() instanceof Compare c && Affine.of(c.x()) != null && Affine.of(c.y()) != null
          && guardable(s.ifTrue()) && guardable(s.ifFalse());
    }
    if (!(bound instanceof Binary b)) return false;
    return switch (b.op()) {
      case MIN, MAX, ADD, SUB -> guardable(b.x()) && guardable(b.y());
      case MUL -> b.y() instanceof Const ? guardable(b.x()) : b.x() instanceof Const && guardable(b.y());
      case DIV -> b.y() instanceof Const k && k.bits() > 0 && guardable(b.x());
      default -> false;
    };
  }

  /** One node whose operands are canonical already. */
  private static Node step(Node n) {
    if (n instanceof Select s && s.type() == Type.INT) {
      Node m = minMax(s);
      if (m != null) return m;
    }
    if (!(n instanceof Binary b) || b.type() != Type.INT || (b.op() != BinaryOp.ADD && b.op() != BinaryOp.SUB)) {
      return n;
    }
    if (isPiecewise(b.x()) && Affine.of(b.y()) != null) {
      return across(b.x(), false, arm -> step(Binary.of(b.op(), arm, b.y())));
    }
    if (isPiecewise(b.y()) && Affine.of(b.x()) != null) {
      // c - min(a, b) is max(c - a, c - b).
      return across(b.y(), b.op() == BinaryOp.SUB, arm -> step(Binary.of(b.op(), b.x(), arm)));
    }
    return n;
  }

  /** {@code piece} with {@code f} applied to each arm; min and max swap when {@code f} reverses order. */
  private static Node across(Node piece, boolean reverses, UnaryOperator<Node> f) {
    if (piece instanceof Select s) return Select.of(s.cond(), f.apply(s.ifTrue()), f.apply(s.ifFalse()));
    Binary b = (Binary) piece;
    BinaryOp op = reverses == (b.op() == BinaryOp.MIN) ? BinaryOp.MAX : BinaryOp.MIN;
    return Binary.of(op, f.apply(b.x()), f.apply(b.y()));
  }

  private static boolean isPiecewise(Node n) {
    return n instanceof Select || n instanceof Binary b && isMinMax(b);
  }

  private static boolean isMinMax(Binary b) {
    return (b.op() == BinaryOp.MIN || b.op() == BinaryOp.MAX) && b.type() == Type.INT;
  }

  /**
   * The min or max that {@code s} computes when it picks one of the two ints its condition compares:
   * {@code a <= b ? a : b} is {@code min(a, b)} for every pair of ints, ties included. Null otherwise.
   */
  private static Node minMax(Select s) {
    if (!(s.cond() instanceof Compare c)) return null;
    boolean same = s.ifTrue().equals(c.x()) && s.ifFalse().equals(c.y());
    boolean swapped = s.ifTrue().equals(c.y()) && s.ifFalse().equals(c.x());
    if (!same && !swapped) return null;
    Cond cond = c.cond();
    if (cond != Cond.LT && cond != Cond.LE && cond != Cond.GT && cond != Cond.GE) return null;
    boolean less = cond == Cond.LT || cond == Cond.LE;
    return Binary.of(less == same ? BinaryOp.MIN : BinaryOp.MAX, c.x(), c.y());
  }
}

package io.looplift.analyzer;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;

/**
 * Recognizes associative accumulator updates ({@code s += e}, {@code if (p) s += e}, {@code Math.max(s, e)},
 * {@code if (e < m) m = e}...) so they can run as parallel partials. Only exact rewrites are made: an update
 * that does not match keeps its sequential form.
 */
final class ReductionClassifier {
  private ReductionClassifier() {}

  static Reduction classify(int acc, Node update) {
    Type t = update.type();
    Acc self = new Acc(acc, t);
    // acc op e, e op acc
    Reduction r = binaryShape(acc, update, self, update, Const.TRUE);
    if (r != null) return r;
    if (update instanceof Select s) {
      // if (p) acc = acc op e   →  acc op (p ? e : identity)
      if (s.ifFalse().equals(self) && !reads(s.cond(), acc)) {
        r = binaryShape(acc, update, self, s.ifTrue(), s.cond());
        if (r != null) return r;
      }
      if (s.ifTrue().equals(self) && !reads(s.cond(), acc)) {
        r = binaryShape(acc, update, self, s.ifFalse(), Unary.of(UnaryOp.NOT, s.cond()));
        if (r != null) return r;
      }
      r = selectShape(acc, update, self, s);
      if (r != null) return r;
    }
    return new Reduction(acc, t, update, null, null);
  }

  private static Reduction binaryShape(int acc, Node update, Acc self, Node x, Node pred) {
    if (!(x instanceof Binary b)) return null;
    Node e;
    if (b.x().equals(self)) e = b.y();
    else if (b.y().equals(self) && b.op() != BinaryOp.SUB) e = b.x();
    else return null;
    if (reads(e, acc)) return null;
    Type t = self.type();
    ReduceOp op;
    switch (b.op()) {
      case ADD -> op = ReduceOp.ADD;
      case SUB -> {
        // acc - e == acc + (-e) exactly for every type (IEEE subtraction is addition of the negation).
        op = ReduceOp.ADD;
        e = Unary.of(UnaryOp.NEG, e);
      }
      case MUL -> op = ReduceOp.MUL;
      case AND -> op = ReduceOp.AND;
      case OR -> op = ReduceOp.OR;
      case XOR -> op = ReduceOp.XOR;
      case MIN -> op = ReduceOp.MIN;
      case MAX -> op = ReduceOp.MAX;
      default -> {
        return null;
      }
    }
    if (!pred.equals(Const.TRUE)) e = Select.of(pred, e, Const.ofBits(t, op.identity(t)));
    return new Reduction(acc, t, update, op, e);
  }

  /** {@code rel(e, acc) ? e : acc}, the conditional min/max shapes, with Java's NaN rules kept exact. */
  private static Reduction selectShape(int acc, Node update, Acc self, Select s) {
    Relation rel = Relation.of(s.cond());
    if (rel == null) return null;
    Node keep = rel.negated ? s.ifTrue() : s.ifFalse();
    Node take = rel.negated ? s.ifFalse() : s.ifTrue();
    Cond relation = rel.cond;
    if (take.equals(self) && rel.x.type() != Type.FLOAT && rel.x.type() != Type.DOUBLE) {
      // "keep acc while rel holds" is "take e when rel fails"; without NaN, failing is the negated relation.
      take = keep;
      keep = self;
      relation = relation.negate();
    }
    if (!keep.equals(self) || reads(take, acc)) return null;
    Cond c;
    if (rel.x.equals(take) && rel.y.equals(self)) c = relation;
    else if (rel.y.equals(take) && rel.x.equals(self)) c = relation.mirror();
    else return null;
    ReduceOp op = switch (c) {
      case LT -> ReduceOp.SELECT_LT;
      case LE -> ReduceOp.SELECT_LE;
      case GT -> ReduceOp.SELECT_GT;
      case GE -> ReduceOp.SELECT_GE;
      default -> null;
    };
    return op == null ? null : new Reduction(acc, self.type(), update, op, take);
  }

  /** A condition decoded to {@code x cond y} (possibly negated), exact for NaN. */
  record Relation(Cond cond, Node x, Node y, boolean negated) {
    static Relation of(Node c) {
      if (!(c instanceof Compare cmp)) return null;
      if (cmp.x().type() == Type.INT && !(cmp.x() instanceof Binary b0 && b0.op().isCompare())) {
        return new Relation(cmp.cond(), cmp.x(), cmp.y(), false);
      }
      if (!(cmp.x() instanceof Binary b) || !b.op().isCompare() || !cmp.y().equals(Const.ofInt(0))) return null;
      if (b.x().type() == Type.LONG) return new Relation(cmp.cond(), b.x(), b.y(), false);
      // fcmpg: NaN → 1, so "< 0" and "<= 0" are exact; fcmpl: NaN → -1, so "> 0" and ">= 0" are.
      boolean g = b.op() == BinaryOp.CMPG;
      return switch (cmp.cond()) {
        case LT -> g ? new Relation(Cond.LT, b.x(), b.y(), false) : new Relation(Cond.GE, b.x(), b.y(), true);
        case LE -> g ? new Relation(Cond.LE, b.x(), b.y(), false) : new Relation(Cond.GT, b.x(), b.y(), true);
        case GT -> g ? new Relation(Cond.LE, b.x(), b.y(), true) : new Relation(Cond.GT, b.x(), b.y(), false);
        case GE -> g ? new Relation(Cond.LT, b.x(), b.y(), true) : new Relation(Cond.GE, b.x(), b.y(), false);
        default -> null;
      };
    }
  }

  private static boolean reads(Node n, int acc) {
    return Nodes.anyMatch(n, x -> x instanceof Acc a && a.index() == acc);
  }

  /** {@code map}, {@code reduce}, {@code scan} (stores read accumulators) or {@code argmin}/{@code argmax}. */
  static String kind(LoopTemplate t) {
    if (t.reductions().isEmpty()) return "map";
    for (Store s : t.allStores()) {
      if (Nodes.readsAccumulator(s.value()) || Nodes.readsAccumulator(s.predicate())) return "scan";
    }
    for (Reduction r : t.reductions()) {
      if (r.update() instanceof Select s && Nodes.anyMatch(s.cond(), x -> x instanceof Acc a && a.index() != r.acc())) {
        Relation rel = Relation.of(s.cond());
        if (rel != null) {
          // The index is replaced when the relation holds (or, negated, when it fails).
          Node takenWhenHolds = rel.negated ? s.ifFalse() : s.ifTrue();
          boolean replacesWhenHolds = !takenWhenHolds.equals(new Acc(r.acc(), r.type()));
          boolean greater = (rel.cond == Cond.GT || rel.cond == Cond.GE) == rel.y instanceof Acc;
          return greater == replacesWhenHolds ? "argmax" : "argmin";
        }
      }
    }
    return "reduce";
  }
}

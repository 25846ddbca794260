package io.looplift.progen.fusion;

import io.looplift.ir.Acc;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Stmt;
import io.looplift.ir.Stmts;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.UnaryOperator;

/**
 * Rewrites every node of a template through {@link Nodes#rewrite}, renumbering arrays, parameters and
 * accumulators on the way. Kernels are built from <em>fragments</em>: a loop's template whose arrays are
 * numbered by flush id and whose parameter and accumulator numbers already count the kernel's earlier
 * members, while its own type lists stay the loop's.
 */
final class TemplateRewrite {
  private TemplateRewrite() {}

  /** The fragment of flush loop {@code loop} placed after {@code paramOffset} parameters and {@code accOffset} accumulators. */
  static LoopTemplate fragment(Flush flush, int loop, int paramOffset, int accOffset) {
    QueuedLoop q = flush.loops().get(loop);
    return rewrite(q.template(), flush.elementTypes(), a -> q.arrayIds()[a], paramOffset, accOffset, UnaryOperator.identity());
  }

  /** {@code t} with every node replaced by what {@code replace} makes of it. */
  static LoopTemplate replaceNodes(LoopTemplate t, UnaryOperator<Node> replace) {
    return rewrite(t, t.arrays(), IntUnaryOperator.identity(), 0, 0, replace);
  }

  /** {@code t} over arrays of {@code types}, its array {@code a} becoming array {@code slot(a)}. */
  static LoopTemplate renumberArrays(LoopTemplate t, List<Type> types, IntUnaryOperator slot) {
    return rewrite(t, types, slot, 0, 0, UnaryOperator.identity());
  }

  private static LoopTemplate rewrite(LoopTemplate t, List<Type> arrays, IntUnaryOperator array, int paramOffset,
      int accOffset, UnaryOperator<Node> replace) {
    UnaryOperator<Node> node = n -> replace.apply(renumber(n, array, paramOffset, accOffset));
    List<Stmt> body = Stmts.rewrite(t.body(), array, node);
    List<Reduction> reductions = new ArrayList<>();
    for (Reduction r : t.reductions()) {
      Node element = r.element() == null ? null : Nodes.rewrite(r.element(), node);
      reductions.add(new Reduction(r.acc() + accOffset, r.type(), Nodes.rewrite(r.update(), node), r.op(), element));
    }
    List<Integer> rows = new ArrayList<>();
    for (int a : t.rowArrays()) rows.add(array.applyAsInt(a));
    return new LoopTemplate(arrays, t.params(), t.accumulators(), body, reductions, rows, t.ordered());
  }

  private static Node renumber(Node n, IntUnaryOperator array, int paramOffset, int accOffset) {
    if (n instanceof Load l) return new Load(array.applyAsInt(l.array()), l.elementType(), l.index(), l.row(), l.epoch());
    if (n instanceof Length l) return new Length(array.applyAsInt(l.array()), l.row());
    if (n instanceof Param p) return new Param(p.index() + paramOffset, p.type());
    if (n instanceof Acc a) return new Acc(a.index() + accOffset, a.type());
    return n;
  }
}

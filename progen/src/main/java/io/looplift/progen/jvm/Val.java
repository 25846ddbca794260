package io.looplift.progen.jvm;

import io.looplift.ir.Acc;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Something a nest kernel computes into a local: the value of a node, or, when {@code rowOf >= 0}, the row
 * {@code node} of argument {@code rowOf} (an array of arrays), which loads and lengths of that row share.
 */
record Val(Node node, int rowOf) {
  static Val of(Node n) {
    return new Val(n, -1);
  }

  static Val row(int array, Node row) {
    return new Val(row, array);
  }

  boolean isRow() {
    return rowOf >= 0;
  }

  /**
   * True for values the generator holds in locals of its own rather than computes: constants, accumulators,
   * loop variables, carried values and loop results.
   */
  boolean isLeaf() {
    return !isRow() && (node instanceof Const || node instanceof Acc || node instanceof Index
        || node instanceof LoopVar || node instanceof CarriedVar || node instanceof LoopOut);
  }

  /** What computing this value needs first. */
  List<Val> operands() {
    List<Val> ops = new ArrayList<>();
    if (isRow()) {
      ops.add(of(node));
    } else if (node instanceof Load l && l.row() != null) {
      ops.add(of(l.index()));
      ops.add(row(l.array(), l.row()));
    } else if (node instanceof Length l) {
      ops.add(row(l.array(), l.row()));
    } else {
      for (Node c : Nodes.children(node)) ops.add(of(c));
    }
    return ops;
  }

  /** Every value {@code root} needs, itself included, each after its operands. */
  static List<Val> postOrder(Val root) {
    Set<Val> seen = new LinkedHashSet<>();
    visit(root, seen);
    return new ArrayList<>(seen);
  }

  private static void visit(Val v, Set<Val> seen) {
    if (seen.contains(v)) return;
    for (Val op : v.operands()) visit(op, seen);
    seen.add(v);
  }
}

package io.looplift.ir;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** Traversals over node DAGs. Shared sub-DAGs are visited once (structural equality). */
public final class Nodes {
  private Nodes() {}

  /** The operands of {@code n}, in evaluation order. */
  public static List<Node> children(Node n) {
    if (n instanceof Load l) return l.row() == null ? List.of(l.index()) : List.of(l.index(), l.row());
    if (n instanceof Length l) return List.of(l.row());
    if (n instanceof Unary u) return List.of(u.x());
    if (n instanceof Binary b) return List.of(b.x(), b.y());
    if (n instanceof Compare c) return List.of(c.x(), c.y());
    if (n instanceof Select s) return List.of(s.cond(), s.ifTrue(), s.ifFalse());
    if (n instanceof Convert c) return List.of(c.x());
    if (n instanceof Call c) return c.args();
    return List.of(); // Const, Param, Index, Acc, LoopVar, CarriedVar, LoopOut
  }

  /** Every distinct node reachable from {@code roots}, each after its operands. */
  public static List<Node> postOrder(Collection<? extends Node> roots) {
    Set<Node> seen = new LinkedHashSet<>();
    for (Node r : roots) visit(r, seen);
    return new ArrayList<>(seen);
  }

  private static void visit(Node n, Set<Node> seen) {
    if (seen.contains(n)) return;
    for (Node c : children(n)) visit(c, seen);
    seen.add(n);
  }

  /**
   * Rebuilds the DAG below {@code root} bottom-up: every node is rebuilt from its rewritten operands through
   * the folding factories ({@code Binary.of} and the like), then handed to {@code replace}, whose result
   * stands for the node in its users. A replacement is final: it is not rewritten again. Shared sub-DAGs
   * are rewritten once.
   */
  public static Node rewrite(Node root, UnaryOperator<Node> replace) {
    Map<Node, Node> done = new HashMap<>();
    for (Node n : postOrder(List.of(root))) {
      List<Node> operands = new ArrayList<>();
      for (Node c : children(n)) operands.add(done.get(c));
      done.put(n, replace.apply(withOperands(n, operands)));
    }
    return done.get(root);
  }

  /** {@code n} with its operands replaced by {@code ops} (in {@link #children} order), folded where possible. */
  private static Node withOperands(Node n, List<Node> ops) {
    if (n instanceof Load l) return new Load(l.array(), l.elementType(), ops.get(0), l.row() == null ? null : ops.get(1), l.epoch());
    if (n instanceof Length l) return new Length(l.array(), ops.get(0));
    if (n instanceof Unary u) return Unary.of(u.op(), ops.get(0));
    if (n instanceof Binary b) return Binary.of(b.op(), ops.get(0), ops.get(1));
    if (n instanceof Compare c) return Compare.of(c.cond(), ops.get(0), ops.get(1));
    if (n instanceof Select s) return Select.of(ops.get(0), ops.get(1), ops.get(2));
    if (n instanceof Convert c) return Convert.of(ops.get(0), c.to());
    if (n instanceof Call c) return new Call(c.owner(), c.name(), c.desc(), ops);
    return n; // Const, Param, Index, Acc, LoopVar, CarriedVar, LoopOut
  }

  /** True when {@code n} or any node below it satisfies {@code p}. */
  public static boolean anyMatch(Node n, Predicate<Node> p) {
    for (Node x : postOrder(List.of(n))) {
      if (p.test(x)) return true;
    }
    return false;
  }

  /** True when {@code n} reads any accumulator. */
  public static boolean readsAccumulator(Node n) {
    return anyMatch(n, x -> x instanceof Acc);
  }

  /**
   * Hash-consing: returns one canonical instance per structurally equal node, so a body's DAG shares
   * every common sub-expression. Not thread-safe; one table per analysis.
   */
  public static final class Table {
    private final Map<Node, Node> nodes = new HashMap<>();

    public Node intern(Node n) {
      return nodes.computeIfAbsent(n, k -> k);
    }

    public int size() { return nodes.size(); }
  }
}

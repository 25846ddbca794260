package io.looplift.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.IntUnaryOperator;
import java.util.function.UnaryOperator;

/** Traversals over statement lists (a loop body), at every depth. */
public final class Stmts {
  private Stmts() {}

  /**
   * Every root node of {@code stmts}, in program order: a store's index, value, predicate and row; a loop's
   * start, limit and predicate, its carried values' initial values and updates, then its body's roots.
   */
  public static List<Node> roots(List<Stmt> stmts) {
    List<Node> roots = new ArrayList<>();
    addRoots(stmts, roots);
    return roots;
  }

  private static void addRoots(List<Stmt> stmts, List<Node> roots) {
    for (Stmt s : stmts) {
      if (s instanceof Store st) {
        roots.add(st.index());
        roots.add(st.value());
        roots.add(st.predicate());
        if (st.row() != null) roots.add(st.row());
      } else if (s instanceof Loop l) {
        roots.add(l.start());
        roots.add(l.limit());
        roots.add(l.predicate());
        for (Carried c : l.carried()) {
          roots.add(c.init());
          roots.add(c.update());
        }
        addRoots(l.body(), roots);
      }
    }
  }

  /**
   * {@code stmts} with every node rewritten by {@link Nodes#rewrite} with {@code replace}; {@code rewritten}
   * hears of each statement and its replacement (inner statements before the loop that holds them).
   */
  public static List<Stmt> rewrite(List<Stmt> stmts, UnaryOperator<Node> replace, BiConsumer<Stmt, Stmt> rewritten) {
    return rewrite(stmts, IntUnaryOperator.identity(), replace, rewritten);
  }

  /**
   * {@code stmts} with every store's array slot {@code a} renumbered to {@code array(a)} and every node
   * rewritten by {@link Nodes#rewrite} with {@code replace} (which renumbers the slots of loads itself).
   */
  public static List<Stmt> rewrite(List<Stmt> stmts, IntUnaryOperator array, UnaryOperator<Node> replace) {
    return rewrite(stmts, array, replace, (old, now) -> {});
  }

  private static List<Stmt> rewrite(List<Stmt> stmts, IntUnaryOperator array, UnaryOperator<Node> replace,
      BiConsumer<Stmt, Stmt> rewritten) {
    List<Stmt> out = new ArrayList<>(stmts.size());
    for (Stmt s : stmts) {
      Stmt r;
      if (s instanceof Store st) {
        r = new Store(array.applyAsInt(st.array()), st.elementType(), Nodes.rewrite(st.index(), replace),
            Nodes.rewrite(st.value(), replace), Nodes.rewrite(st.predicate(), replace),
            st.row() == null ? null : Nodes.rewrite(st.row(), replace));
      } else {
        Loop l = (Loop) s;
        List<Carried> carried = new ArrayList<>();
        for (Carried c : l.carried()) {
          carried.add(new Carried(c.type(), Nodes.rewrite(c.init(), replace), Nodes.rewrite(c.update(), replace)));
        }
        r = new Loop(l.id(), Nodes.rewrite(l.start(), replace), Nodes.rewrite(l.limit(), replace), l.cond(), l.step(),
            carried, rewrite(l.body(), array, replace, rewritten), Nodes.rewrite(l.predicate(), replace), l.parallel());
      }
      rewritten.accept(s, r);
      out.add(r);
    }
    return out;
  }
}

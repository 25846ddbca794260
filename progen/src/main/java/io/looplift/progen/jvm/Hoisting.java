package io.looplift.progen.jvm;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Carried;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Store;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a nest kernel computes the values that do not vary in a loop: once, on entry to the loop (its
 * preheader, which runs only when the loop runs at least one iteration), rather than in every iteration.
 *
 * <p>A value used in a level's body that does not vary there (see {@link Level#varies}) moves to that
 * level's preheader, and on out through every enclosing level in which it does not vary either, as long as it
 * cannot throw: hoisted that far it may be computed where Java would not compute it (an enclosing iteration
 * in which the inner loop runs no iteration, or its predicate fails). A value that can throw (an array
 * access, a length, an integer division, a call) moves only to the preheader of the level whose body uses it
 * unconditionally. Values used only where a loop is entered (bounds, initial carried values) stay there
 * unless they cannot throw. Values not hoisted are computed where they are used, in their segment.
 */
final class Hoisting {
  private final Map<Level, Set<Val>> preheaders = new HashMap<>();
  private final Map<Node, Boolean> safe = new HashMap<>();

  /** The placement for the kernel whose outermost level is {@code root}. */
  Hoisting(Level root) {
    place(root);
  }

  /**
   * The values to compute on entry to {@code level}, each after its operands that are also computed there;
   * for the outermost level, once per kernel run.
   */
  Set<Val> preheader(Level level) {
    return preheaders.getOrDefault(level, Set.of());
  }

  private void place(Level level) {
    for (Part p : level.parts()) {
      if (p instanceof Part.Segment s) {
        for (Store st : s.stores()) {
          use(Val.of(st.predicate()), level, false);
          use(Val.of(st.index()), level, false);
          use(Val.of(st.value()), level, false);
          if (st.row() != null) use(Val.row(st.array(), st.row()), level, false);
        }
      } else if (p instanceof Level inner) {
        Loop l = inner.loop();
        if (l != null) { // the template's outermost loop, inside a band, has no bounds of its own
          use(Val.of(l.predicate()), level, false);
          use(Val.of(l.start()), level, true);
          use(Val.of(l.limit()), level, true);
          for (Carried c : l.carried()) use(Val.of(c.init()), level, true);
        }
        place(inner);
      }
    }
    for (Node f : level.finals()) use(Val.of(f), level, false);
  }

  /**
   * Places every value {@code root} needs, used in {@code at}'s body; {@code conditional} when used only where
   * a loop is entered.
   */
  private void use(Val root, Level at, boolean conditional) {
    for (Val v : Val.postOrder(root)) {
      if (v.isLeaf()) continue;
      Level target = target(v, at, conditional);
      if (target != null) preheaders.computeIfAbsent(target, k -> new LinkedHashSet<>()).add(v);
    }
  }

  private Level target(Val v, Level at, boolean conditional) {
    if (at.varies(v.node())) return null;
    if (v.isRow() || !safe(v.node())) return conditional ? null : at;
    Level target = at;
    while (target.parent() != null && !target.parent().varies(v.node())) target = target.parent();
    return target;
  }

  /** True when computing {@code n} cannot throw. */
  private boolean safe(Node n) {
    Boolean known = safe.get(n);
    if (known != null) return known;
    boolean s = !(n instanceof Load || n instanceof Length || n instanceof Call
        || n instanceof Binary b && (b.op() == BinaryOp.DIV || b.op() == BinaryOp.REM) && b.x().type().isIntegral());
    for (Node c : Nodes.children(n)) {
      if (!s) break;
      s = safe(c);
    }
    safe.put(n, s);
    return s;
  }
}

package io.looplift.progen.jvm;

import io.looplift.ir.Acc;
import io.looplift.ir.Affine;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Const;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Unroll-and-jam of one level of a nest kernel: {@link #WIDTH} consecutive iterations of a level whose
 * iterations are independent (a parallel loop, or the outermost loop of a template that is not ordered) run
 * as one block, each inner loop entered once for all of them with one set of carried values per iteration
 * (an <em>instance</em>), so that the inner loop's latency-bound chains (a dot product's sum) overlap.
 * Values that do not depend on the instance (a load of the shared row of a matrix product) are computed
 * once for all. Each instance performs exactly the operations of its iteration in the original order, and
 * the instances touch disjoint elements, so the results are the original's bit for bit.
 *
 * <p>An inner level runs once for all instances when its predicate and bounds are the same for all of them:
 * {@link Fusion#SHARED} when they do not depend on the instance, {@link Fusion#CHECKED} when they do but can
 * be computed when the block starts and may be equal (then the block runs one iteration at a time where
 * they differ), else {@link Fusion#SEPARATE}, once per instance. A level is jammed when one of the loops
 * directly in its body carries values, runs once for all instances and is bound by the latency of its
 * carried chain (see {@link #latencyBound}), and no level inside it is jammed.
 */
final class Jam {
  /** Iterations per block. */
  static final int WIDTH = NestKernel.BLOCK;

  /** How an inner level runs in a block. */
  enum Fusion { SHARED, CHECKED, SEPARATE }

  private final Level level;
  private final Map<Level, Fusion> fusion = new LinkedHashMap<>();
  private final Set<Node> separateVars = new HashSet<>();
  private final boolean[] written;
  private Map<Node, Boolean> dependent = new HashMap<>();

  private Jam(Level level, LoopTemplate t) {
    this.level = level;
    this.written = t.writtenArrays();
    classify(level, true);
    // Classifying read no variable of a separate level (they are out of scope in bounds): start afresh.
    dependent = new HashMap<>();
  }

  /** The jammed levels of the kernel whose outermost level is {@code root}. */
  static Map<Level, Jam> plan(Level root, LoopTemplate t) {
    Map<Level, Jam> jams = new HashMap<>();
    visit(root, t, jams);
    return jams;
  }

  /** Plans the levels from {@code l} down; true when one of them is jammed. */
  private static boolean visit(Level l, LoopTemplate t, Map<Level, Jam> jams) {
    boolean inner = false;
    for (Level c : l.children()) inner |= visit(c, t, jams);
    if (inner || !independent(l, t)) return inner;
    Jam jam = new Jam(l, t);
    for (Level c : l.children()) {
      if (!c.loop().carried().isEmpty() && jam.fusion(c) != Fusion.SEPARATE && latencyBound(c)) {
        jams.put(l, jam);
        return true;
      }
    }
    return false;
  }

  /**
   * True when nothing in {@code l} runs on the processor's unpipelined units: no division, remainder, square
   * root or call. A loop that has them is bound by their throughput rather than by the latency of its
   * carried chain, and jamming it only adds register pressure: an n-body step's force loop, jammed by four,
   * took 2.4 times as long as the plain loop on C2 (x86-64).
   */
  private static boolean latencyBound(Level l) {
    List<Node> roots = stmtRoots(l);
    roots.addAll(l.finals());
    for (Node n : Nodes.postOrder(roots)) {
      if (n instanceof Call || n instanceof Unary u && u.op() == UnaryOp.SQRT
          || n instanceof Binary b && (b.op() == BinaryOp.DIV || b.op() == BinaryOp.REM)) {
        return false;
      }
    }
    return true;
  }

  /** True when the iterations of {@code l} may run in any order, and so in blocks. */
  private static boolean independent(Level l, LoopTemplate t) {
    if (l.loop() != null) return l.loop().parallel();
    if (l.parent() != null || t.ordered()) return false;
    // Stores that read an accumulator would see it before the earlier instances' updates.
    for (Node root : stmtRoots(l)) {
      if (Nodes.readsAccumulator(root)) return false;
    }
    return true;
  }

  private static List<Node> stmtRoots(Level l) {
    List<Node> roots = new ArrayList<>();
    for (Part p : l.parts()) {
      if (p instanceof Part.Segment s) {
        s.stores().forEach(st -> {
          roots.add(st.predicate());
          roots.add(st.index());
          roots.add(st.value());
          if (st.row() != null) roots.add(st.row());
        });
      } else if (p instanceof Level inner) {
        Loop loop = inner.loop();
        roots.add(loop.predicate());
        roots.add(loop.start());
        roots.add(loop.limit());
        loop.carried().forEach(c -> {
          roots.add(c.init());
          roots.add(c.update());
        });
        roots.addAll(stmtRoots(inner));
      }
    }
    return roots;
  }

  private void classify(Level parent, boolean direct) {
    for (Level inner : parent.children()) {
      Loop l = inner.loop();
      Fusion f;
      if (!dependent(l.predicate()) && !dependent(l.start()) && !dependent(l.limit())) {
        f = Fusion.SHARED;
      } else if (direct && precomputable(l.predicate()) && precomputable(l.start()) && precomputable(l.limit())
          && !differs(l.start()) && !differs(l.limit())) {
        f = Fusion.CHECKED;
      } else {
        f = Fusion.SEPARATE;
      }
      fusion.put(inner, f);
      if (f == Fusion.SEPARATE) addVars(inner); else classify(inner, false);
    }
  }

  private void addVars(Level l) {
    separateVars.add(l.var());
    for (Level inner : l.children()) addVars(inner);
  }

  /**
   * True when {@code n}'s value is known when a block starts, the same as where its loop is entered: it
   * reads no carried value, loop result, accumulator or element of an array the template writes.
   */
  private boolean precomputable(Node n) {
    return !Nodes.anyMatch(n, x -> x instanceof CarriedVar || x instanceof LoopOut || x instanceof Acc
        || x instanceof Load l && written[l.array()]);
  }

  /**
   * True when {@code bound} takes a different value in each instance: it is affine in the jammed variable
   * with a constant coefficient other than 0 (a triangular loop's {@code j <= i}), so a check would never pass.
   */
  private boolean differs(Node bound) {
    Affine a = Affine.of(bound);
    return a != null && a.coefficient(level.var()) instanceof Const c && c.intValue() != 0;
  }

  /** The jammed level. */
  Level level() {
    return level;
  }

  /** How {@code inner}, a level directly inside the jammed one or inside one that runs once for all, runs. */
  Fusion fusion(Level inner) {
    return fusion.get(inner);
  }

  /** The levels whose bounds each block checks, in program order. */
  List<Level> checked() {
    List<Level> checked = new ArrayList<>();
    fusion.forEach((l, f) -> {
      if (f == Fusion.CHECKED) checked.add(l);
    });
    return checked;
  }

  /** True when value {@code v} may differ between the instances of a block, so each needs its own. */
  boolean dependent(Val v) {
    return dependent(v.node());
  }

  private boolean dependent(Node n) {
    Boolean known = dependent.get(n);
    if (known != null) return known;
    boolean d;
    if (n.equals(level.var())) {
      d = true;
    } else if (n instanceof LoopVar) {
      d = separateVars.contains(n);
    } else if (n instanceof CarriedVar c) {
      d = level.contains(c.loop());
    } else if (n instanceof LoopOut o) {
      d = level.contains(o.loop());
    } else if (n instanceof Acc) {
      d = level.isOuter();
    } else {
      d = false;
      for (Node c : Nodes.children(n)) {
        if (d) break;
        d = dependent(c);
      }
    }
    dependent.put(n, d);
    return d;
  }
}

package io.looplift.progen.jvm;

import io.looplift.ir.Acc;
import io.looplift.ir.Affine;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Const;
import io.looplift.ir.Length;
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
 *
 * <p>Where its one inner loop qualifies, a level is jammed {@linkplain #inLanes() in lanes} instead, whatever
 * bounds that loop (latency, or the unpipelined units' throughput): blocks of up to {@link #LANES} iterations, the
 * inner loop entered once for all of them, and each of its iterations running a counted loop over the block's
 * instances (the lanes) with their carried values in arrays, which C2 vectorizes. What each lane reads of its
 * own and does not change in the inner loop (an n-body step's {@code px[i]}) is computed once per lane into an
 * array before the inner loop, so that the lane loop touches arrays only at the lane's index: C2 does not
 * vectorize a loop that stores to one array and loads another of the same type at a different offset.
 */
final class Jam {
  /** Iterations per block. */
  static final int WIDTH = NestKernel.BLOCK;

  /**
   * Iterations per block of a level jammed in lanes, at most: enough for the lane loop's own cost to be small
   * beside its work (an n-body force loop over 8,192 bodies took 0.75 ns per pair with 64 lanes, 0.44 with
   * 256, 0.33 with 1,024, against 1.15 in Java's order, on one core of the 2-core AVX-512 machine), few enough
   * for the block's arrays to stay in the L1 cache.
   */
  static final int LANES = 512;
  /**
   * The fewest iterations a block in lanes takes; fewer run one at a time, their carried values in locals: a
   * lane loop of a few iterations in every inner iteration costs more than it saves.
   */
  static final int MIN_LANES = 16;

  /** How an inner level runs in a block. */
  enum Fusion { SHARED, CHECKED, SEPARATE }

  private final Level level;
  private final Map<Level, Fusion> fusion = new LinkedHashMap<>();
  private final Set<Node> separateVars = new HashSet<>();
  private final boolean[] written;
  private Map<Node, Boolean> dependent = new HashMap<>();
  /** The inner loop run in lanes, or null for a jam by {@link #WIDTH}. */
  private Level lanesOf;
  /** The values each lane computes before the inner loop (see {@link #inLanes}), in a fixed order. */
  private final List<Val> laneValues = new ArrayList<>();

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
    if (jam.laneable()) {
      jams.put(l, jam);
      return true;
    }
    for (Level c : l.children()) {
      if (!c.loop().carried().isEmpty() && jam.fusion(c) != Fusion.SEPARATE && latencyBound(c)) {
        jams.put(l, jam);
        return true;
      }
    }
    return false;
  }

  /**
   * Makes this a jam in lanes and returns true when the level qualifies: it carries nothing, its one inner
   * loop has no loop inside it, stores nothing, carries values, is entered unconditionally with the same
   * bounds for all instances, and its updates are values a lane loop computes (see
   * {@link #laneable(Node, Level)}).
   */
  private boolean laneable() {
    List<Level> children = level.children();
    if (children.size() != 1 || level.loop() != null && !level.loop().carried().isEmpty()) return false;
    Level inner = children.get(0);
    Loop loop = inner.loop();
    if (fusion(inner) != Fusion.SHARED || !inner.children().isEmpty() || loop.carried().isEmpty()
        || !loop.predicate().equals(Const.TRUE)) {
      return false;
    }
    for (Part p : inner.parts()) {
      if (p instanceof Part.Segment s && !s.stores().isEmpty()) return false;
    }
    for (Node f : inner.finals()) {
      if (!laneable(f, inner)) {
        laneValues.clear();
        return false;
      }
    }
    lanesOf = inner;
    return true;
  }

  /**
   * True when a lane loop computes {@code n}, a value of the inner loop; collects the lane values it needs. A
   * value that does not change in the inner loop is computed before it, once per lane, whatever it is (but
   * for an accumulator, which the lanes before would not have updated yet). The lane loop itself loads
   * nothing (a load there would depend on both the lane and the inner loop's iteration), and calls,
   * divides integers or takes remainders nowhere: C2 vectorizes none of these.
   */
  private boolean laneable(Node n, Level inner) {
    if (!dependent(n) || Val.of(n).isLeaf()) return !(n instanceof Acc && dependent(n));
    if (!inner.varies(n)) {
      if (Nodes.anyMatch(n, x -> x instanceof Acc && dependent(x))) return false;
      Val v = Val.of(n);
      if (!laneValues.contains(v)) laneValues.add(v);
      return true;
    }
    if (n instanceof Load || n instanceof Length || n instanceof Call
        || n instanceof Binary b && (b.op() == BinaryOp.REM || b.op() == BinaryOp.DIV && b.x().type().isIntegral())) {
      return false;
    }
    for (Node c : Nodes.children(n)) {
      if (!laneable(c, inner)) return false;
    }
    return true;
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

  /** True for a jam in lanes (see {@link #LANES}), false for a jam by {@link #WIDTH}. */
  boolean inLanes() {
    return lanesOf != null;
  }

  /** The inner loop a jam in lanes runs once for all lanes; null for a jam by {@link #WIDTH}. */
  Level lanesOf() {
    return lanesOf;
  }

  /**
   * What each lane computes before the inner loop of a jam in lanes: its values that do not change there,
   * each kept in an array by lane.
   */
  List<Val> laneValues() {
    return laneValues;
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

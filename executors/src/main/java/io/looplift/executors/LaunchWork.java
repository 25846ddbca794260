package io.looplift.executors;

import io.looplift.ir.Acc;
import io.looplift.ir.Call;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An estimate of the work of a launch, flat loop or nest, in units of one IR node computed once (a call
 * counts {@link #CALL_WEIGHT}): what the jvm executor splits launches by and the executor selection sizes
 * them by. Per iteration of the outermost loop, each body's nodes, plus
 * each inner loop's trip count times the work of its body. A trip count comes from the loop's bounds
 * evaluated with the launch's parameters and arrays, with every enclosing loop variable at the middle of its
 * range; bounds that read carried values, or that cannot be evaluated, count {@link #UNKNOWN_TRIPS}.
 *
 * <p>An instance is the plan of one template, made once ({@link #of}): the weights of its bodies and which
 * bounds can be known, so that a launch evaluates only its inner loops' bounds. Immutable and thread-safe.
 */
public final class LaunchWork {
  /** The work of a call (Math.exp and the like) in units of one IR node. */
  public static final int CALL_WEIGHT = 20;
  /** The trip count assumed for an inner loop whose bounds cannot be evaluated before the launch runs. */
  public static final int UNKNOWN_TRIPS = 64;

  private final Level outer;
  private final long perIteration;

  /** The statements of one body: the weight of what it computes outside its inner loops, and those loops. */
  private record Level(long weight, List<Inner> loops) {}

  /** An inner loop: the weight of its header (bounds, predicate, carried values), its bounds and its body. */
  private record Inner(Loop loop, long header, Bound start, Bound limit, Level body) {}

  /**
   * A loop bound: null {@code node} when it is never known before the loop runs (it reads carried values or
   * accumulators); {@code launch} when it reads the launch's parameters or arrays; the enclosing loops whose
   * variables it reads.
   */
  private record Bound(Node node, boolean launch, Set<Integer> loopVars) {}

  private LaunchWork(LoopTemplate t) {
    List<Node> finals = new ArrayList<>();
    for (Reduction r : t.reductions()) finals.add(r.update());
    this.outer = level(t.body(), finals);
    this.perIteration = new Evaluation(null, null, 0).work(outer);
  }

  /** The plan of template {@code t}'s launches. */
  public static LaunchWork of(LoopTemplate t) {
    return new LaunchWork(t);
  }

  /** The work of a whole launch, inner bounds evaluated at the middle iteration of the outermost loop. */
  public long launch(Launch launch) {
    if (outer.loops().isEmpty()) return saturatedMultiply(launch.trips(), perIteration);
    int middle = launch.start() + launch.trips() / 2 * launch.step();
    return saturatedMultiply(launch.trips(), new Evaluation(launch.arrays(), launch.params(), middle).work(outer));
  }

  /**
   * The work of one iteration, the same in every launch of a flat template; for a nest, what one iteration
   * does outside its inner loops plus {@link #UNKNOWN_TRIPS} times each inner body whose bounds depend on the
   * launch.
   */
  public long perIteration() {
    return perIteration;
  }

  /** The weight of the distinct nodes below {@code roots}. */
  public static long weight(Collection<Node> roots) {
    long w = 0;
    for (Node n : Nodes.postOrder(roots)) w += n instanceof Call ? CALL_WEIGHT : 1;
    return w;
  }

  private static Level level(List<Stmt> stmts, List<Node> finals) {
    List<Node> roots = new ArrayList<>(finals);
    List<Inner> loops = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Store st) {
        roots.add(st.predicate());
        roots.add(st.index());
        roots.add(st.value());
        if (st.row() != null) roots.add(st.row());
      } else if (s instanceof Loop l) {
        List<Node> header = new ArrayList<>(List.of(l.predicate(), l.start(), l.limit()));
        List<Node> updates = new ArrayList<>();
        for (Carried c : l.carried()) {
          header.add(c.init());
          updates.add(c.update());
        }
        loops.add(new Inner(l, weight(header), bound(l.start()), bound(l.limit()), level(l.body(), updates)));
      }
    }
    return new Level(weight(roots), List.copyOf(loops));
  }

  private static Bound bound(Node n) {
    Set<Integer> loopVars = new HashSet<>();
    boolean launch = false;
    for (Node x : Nodes.postOrder(List.of(n))) {
      if (x instanceof CarriedVar || x instanceof LoopOut || x instanceof Acc) return new Bound(null, false, Set.of());
      if (x instanceof LoopVar v) loopVars.add(v.loop());
      launch |= x instanceof Param || x instanceof Load || x instanceof Length || x instanceof Index;
    }
    return new Bound(n, launch, Set.copyOf(loopVars));
  }

  /** One estimate: a launch's bindings (null for {@link #perIteration}) and the enclosing loops' middles. */
  private static final class Evaluation {
    private final Object[] arrays;
    private final long[] params;
    private final int index;
    private final Map<Integer, Integer> middles = new HashMap<>();

    Evaluation(Object[] arrays, long[] params, int index) {
      this.arrays = arrays;
      this.params = params;
      this.index = index;
    }

    long work(Level level) {
      long work = level.weight();
      for (Inner in : level.loops()) {
        Loop l = in.loop();
        long trips = UNKNOWN_TRIPS;
        Long start = evaluate(in.start());
        Long limit = evaluate(in.limit());
        if (start != null && limit != null) {
          long known = l.shape().trips(start.intValue(), limit.intValue());
          if (known >= 0) trips = known;
          middles.put(l.id(), (int) (start + known / 2 * l.step()));
        }
        work = saturatedAdd(work, in.header());
        work = saturatedAdd(work, saturatedMultiply(trips, work(in.body())));
        middles.remove(l.id());
      }
      return work;
    }

    /** The value of a bound at the middle of the enclosing ranges, or null when it cannot be known. */
    private Long evaluate(Bound b) {
      if (b.node() == null || b.launch() && params == null || !middles.keySet().containsAll(b.loopVars())) return null;
      if (b.node() instanceof Const c) return c.bits();
      try {
        Node at = b.loopVars().isEmpty() ? b.node()
            : Nodes.rewrite(b.node(), x -> x instanceof LoopVar v ? Const.ofInt(middles.get(v.loop())) : x);
        return new Interpreter(arrays, params, new long[0]).evaluate(at, index);
      } catch (RuntimeException e) {
        return null; // a row or element that is not there, a division by zero: a guess is all this needs
      }
    }
  }

  private static long saturatedAdd(long x, long y) {
    long s = x + y;
    return s < 0 ? Long.MAX_VALUE : s;
  }

  private static long saturatedMultiply(long x, long y) {
    return y != 0 && x > Long.MAX_VALUE / y ? Long.MAX_VALUE : x * y;
  }
}

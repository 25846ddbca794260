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
import java.util.List;
import java.util.Map;

/**
 * An estimate of the work of a launch, flat loop or nest, in units of one IR node computed once (a call
 * counts {@link #CALL_WEIGHT}): what the jvm executor splits launches by and the executor selection sizes
 * them by. Per iteration of the outermost loop, each body's nodes, plus
 * each inner loop's trip count times the work of its body. A trip count comes from the loop's bounds
 * evaluated with the launch's parameters and arrays, with every enclosing loop variable at the middle of its
 * range; bounds that read carried values, or that cannot be evaluated, count {@link #UNKNOWN_TRIPS}. Not
 * thread-safe: one instance per estimate.
 */
public final class LaunchWork {
  /** The work of a call (Math.exp and the like) in units of one IR node. */
  public static final int CALL_WEIGHT = 20;
  /** The trip count assumed for an inner loop whose bounds cannot be evaluated before the launch runs. */
  public static final int UNKNOWN_TRIPS = 64;

  private final Object[] arrays;
  private final long[] params;
  private final Map<Integer, Integer> middles = new HashMap<>();
  private final int index;

  private LaunchWork(Object[] arrays, long[] params, int index) {
    this.arrays = arrays;
    this.params = params;
    this.index = index;
  }

  /** The work of a whole launch, inner bounds evaluated at the middle iteration of the outermost loop. */
  public static long of(Launch launch) {
    int middle = launch.start() + launch.trips() / 2 * launch.step();
    LaunchWork w = new LaunchWork(launch.arrays(), launch.params(), middle);
    return saturatedMultiply(launch.trips(), w.iteration(launch.template()));
  }

  /**
   * The work of one iteration of flat template {@code t}, the same in every launch; for a nest, what one
   * iteration does outside its inner loops plus {@link #UNKNOWN_TRIPS} times each inner body.
   */
  public static long perIteration(LoopTemplate t) {
    return new LaunchWork(null, null, 0).iteration(t);
  }

  private long iteration(LoopTemplate t) {
    List<Node> finals = new ArrayList<>();
    for (Reduction r : t.reductions()) finals.add(r.update());
    return body(t.body(), finals);
  }

  /** The weight of the distinct nodes below {@code roots}. */
  public static long weight(Collection<Node> roots) {
    long w = 0;
    for (Node n : Nodes.postOrder(roots)) w += n instanceof Call ? CALL_WEIGHT : 1;
    return w;
  }

  private long body(List<Stmt> stmts, List<Node> finals) {
    List<Node> roots = new ArrayList<>(finals);
    long work = 0;
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
        long trips = UNKNOWN_TRIPS;
        Long start = evaluate(l.start());
        Long limit = evaluate(l.limit());
        if (start != null && limit != null) {
          long known = l.shape().trips(start.intValue(), limit.intValue());
          if (known >= 0) trips = known;
          middles.put(l.id(), (int) (start + known / 2 * l.step()));
        }
        work = saturatedAdd(work, weight(header));
        work = saturatedAdd(work, saturatedMultiply(trips, body(l.body(), updates)));
        middles.remove(l.id());
      }
    }
    return saturatedAdd(work, weight(roots));
  }

  /** The value of a bound at the middle of the enclosing ranges, or null when it cannot be known. */
  private Long evaluate(Node bound) {
    boolean launchKnown = params != null;
    if (Nodes.anyMatch(bound, x -> x instanceof CarriedVar || x instanceof LoopOut || x instanceof Acc
        || x instanceof LoopVar v && !middles.containsKey(v.loop())
        || !launchKnown && (x instanceof Param || x instanceof Load || x instanceof Length || x instanceof Index))) {
      return null;
    }
    try {
      Node at = Nodes.rewrite(bound, x -> x instanceof LoopVar v ? Const.ofInt(middles.get(v.loop())) : x);
      return new Interpreter(arrays, params, new long[0]).evaluate(at, index);
    } catch (RuntimeException e) {
      return null; // a row or element that is not there, a division by zero: a guess is all this needs
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

package io.looplift.ir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a loop nest in Java's order (the {@link Interpreter} for templates that are not flat): each iteration
 * of the outermost loop runs the body's statements segment by segment, as {@link Stmt} defines, inner loops
 * in place. Not thread-safe; one instance per launch.
 */
final class NestInterpreter {
  private final LoopTemplate t;
  private final Object[] arrays;
  private final long[] params;
  private final long[] accs;
  private final long[] current;
  private int index;
  /** Each inner loop's variable, carried values and results, by loop id, as the run reaches them. */
  private final Map<Integer, Integer> loopVars = new HashMap<>();
  private final Map<Integer, long[]> carried = new HashMap<>();
  private final Map<Integer, long[]> outs = new HashMap<>();

  NestInterpreter(LoopTemplate t, Object[] arrays, long[] params, long[] accs) {
    this.t = t;
    this.arrays = arrays;
    this.params = params;
    this.accs = accs;
    this.current = accs.clone();
  }

  /** Runs iterations {@code 0 .. trips-1} with {@code i = start + k * step}; accumulators written at the end. */
  void run(int start, int step, int trips) {
    List<Node> updates = t.reductions().stream().map(Reduction::update).toList();
    for (int k = 0; k < trips; k++) {
      index = start + k * step;
      long[] next = runBody(t.body(), updates);
      for (int r = 0; r < next.length; r++) current[t.reductions().get(r).acc()] = next[r];
    }
    System.arraycopy(current, 0, accs, 0, accs.length);
  }

  /**
   * Runs {@code stmts} and returns the values of {@code finals}, computed with the last segment (before its
   * stores), as carried updates and reduction updates are.
   */
  private long[] runBody(List<Stmt> stmts, List<Node> finals) {
    int from = 0;
    for (int s = 0; s < stmts.size(); s++) {
      if (stmts.get(s) instanceof Loop l) {
        runSegment(stmts.subList(from, s), List.of());
        runLoop(l);
        from = s + 1;
      }
    }
    return runSegment(stmts.subList(from, stmts.size()), finals);
  }

  /** Computes every node of {@code stores} and {@code finals}, then performs the stores in order. */
  private long[] runSegment(List<Stmt> stores, List<Node> finals) {
    Map<Node, Long> v = new HashMap<>();
    for (Stmt s : stores) {
      Store st = (Store) s;
      for (Node n : st.row() == null ? List.of(st.predicate(), st.index(), st.value())
          : List.of(st.predicate(), st.index(), st.value(), st.row())) {
        value(n, v);
      }
    }
    long[] result = new long[finals.size()];
    for (int k = 0; k < result.length; k++) result[k] = value(finals.get(k), v);
    for (Stmt s : stores) {
      Store st = (Store) s;
      if (v.get(st.predicate()) == 0) continue;
      Object array = st.row() == null ? arrays[st.array()] : ((Object[]) arrays[st.array()])[(int) (long) v.get(st.row())];
      Evaluator.store(array, st.elementType(), (int) (long) v.get(st.index()), v.get(st.value()));
    }
    return result;
  }

  private void runLoop(Loop l) {
    Map<Node, Long> entry = new HashMap<>();
    long[] values = new long[l.carried().size()];
    outs.put(l.id(), values);
    if (value(l.predicate(), entry) == 0) return; // results never observed: a select picks another path
    for (int c = 0; c < values.length; c++) values[c] = value(l.carried().get(c).init(), entry);
    int start = (int) value(l.start(), entry);
    int limit = (int) value(l.limit(), entry);
    long trips = l.shape().trips(start, limit);
    if (trips < 0) throw new IllegalStateException("inner loop " + l.id() + " from " + start + " to " + limit + " does not count");
    List<Node> updates = l.carried().stream().map(Carried::update).toList();
    for (long k = 0; k < trips; k++) {
      loopVars.put(l.id(), (int) (start + k * l.step()));
      carried.put(l.id(), values.clone());
      values = runBody(l.body(), updates);
    }
    outs.put(l.id(), values);
  }

  private long value(Node root, Map<Node, Long> v) {
    Long known = v.get(root);
    if (known != null) return known;
    for (Node n : Nodes.postOrder(List.of(root))) {
      if (!v.containsKey(n)) v.put(n, eval(n, v));
    }
    return v.get(root);
  }

  private long eval(Node n, Map<Node, Long> v) {
    if (n instanceof Index) return index;
    if (n instanceof LoopVar lv) return loopVars.get(lv.loop());
    if (n instanceof CarriedVar c) return carried.get(c.loop())[c.slot()];
    if (n instanceof LoopOut o) return outs.get(o.loop())[o.slot()];
    return Interpreter.evalOperation(n, v, arrays, params, current);
  }
}

package io.looplift.analyzer;

import io.looplift.ir.Affine;
import io.looplift.ir.Carried;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Stmt;
import io.looplift.ir.Stmts;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What makes a loop nest offloadable, decided on its statements: values stay in their segment, each
 * iteration reads only elements it writes itself of the arrays the nest writes, and some loop's iterations
 * are independent. A nest's work items are the iterations of its parallel loops: the outermost loop's
 * (unless it is {@link Decision#ordered}) and those of the <em>band</em>, the loops nested perfectly inside
 * it (each the whole body of the one around it, with bounds that do not depend on it). Guards check the
 * same independence with the launch's numbers (see the runtime's launch guard): the analysis decides which
 * loops can be parallel at all, the guards whether they are for these arrays.
 */
final class NestRules {
  private NestRules() {}

  /**
   * @param ordered the outermost loop carries a dependence through memory and runs in order inside each
   *     iteration of its one inner loop, which is parallel (column sums)
   * @param parallelLoops the ids of the band loops whose iterations are independent, outermost first
   */
  record Decision(boolean ordered, List<Integer> parallelLoops) {}

  /**
   * Checks the nest with body {@code stmts} whose outermost loop ends its iterations with {@code updates}
   * (of its accumulators) in epoch {@code endEpoch}, and decides which loops are parallel.
   *
   * @throws Rejection with a reason a user can read
   */
  static Decision decide(LoopBody body, List<Stmt> stmts, List<Node> updates, int endEpoch, boolean accumulators) {
    boolean[] written = writtenArrays(stmts, body.arrays.size());
    Map<Integer, List<Store>> stores = new HashMap<>();
    for (Store s : allStores(stmts)) stores.computeIfAbsent(s.array(), k -> new ArrayList<>()).add(s);
    checkSegments(body, stmts, written);
    for (Node n : updates) checkEpoch(n, endEpoch, written);
    checkOwnElements(stmts, updates, written, stores);
    checkShapes(stores);

    if (writesDistinct(stores, Index.I)) return new Decision(false, band(stmts, stores, Index.I));
    if (!accumulators && stmts.size() == 1 && stmts.get(0) instanceof Loop l && isBandLoop(l, List.of(Index.I))
        && writesDistinct(stores, new LoopVar(l.id()))) {
      return new Decision(true, List.of(l.id()));
    }
    throw new Rejection("carries a dependence through memory: iterations of the outer loop write the same elements");
  }

  /** Per array slot, whether some store of {@code stmts} (at any depth) writes it. */
  static boolean[] writtenArrays(List<Stmt> stmts, int arrays) {
    boolean[] written = new boolean[arrays];
    for (Store s : allStores(stmts)) written[s.array()] = true;
    return written;
  }

  /** {@code stmts} with the loops of {@code d} marked parallel. */
  static List<Stmt> markParallel(List<Stmt> stmts, Decision d) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Loop l) {
        out.add(new Loop(l.id(), l.start(), l.limit(), l.cond(), l.step(), l.carried(), markParallel(l.body(), d),
            l.predicate(), l.parallel() || d.parallelLoops().contains(l.id())));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  private static List<Store> allStores(List<Stmt> stmts) {
    List<Store> all = new ArrayList<>();
    for (Stmt s : stmts) {
      if (s instanceof Store st) all.add(st);
      else if (s instanceof Loop l) all.addAll(allStores(l.body()));
    }
    return all;
  }

  /**
   * Every statement uses the elements of written arrays it read in its own segment: a value read before
   * an inner loop and used after it would be computed after the loop, when the loop may have changed it.
   */
  private static void checkSegments(LoopBody body, List<Stmt> stmts, boolean[] written) {
    for (Stmt s : stmts) {
      int epoch = body.epochs.get(s);
      if (s instanceof Store st) {
        for (Node n : Stmts.roots(List.of(st))) checkEpoch(n, epoch, written);
      } else if (s instanceof Loop l) {
        checkEpoch(l.start(), epoch, written);
        checkEpoch(l.limit(), epoch, written);
        checkEpoch(l.predicate(), epoch, written);
        int end = body.updateEpochs.get(l.id());
        for (Carried c : l.carried()) {
          checkEpoch(c.init(), epoch, written);
          checkEpoch(c.update(), end, written);
        }
        checkSegments(body, l.body(), written);
      }
    }
  }

  private static void checkEpoch(Node n, int epoch, boolean[] written) {
    for (Node x : Nodes.postOrder(List.of(n))) {
      if (x instanceof Load l && written[l.array()] && l.epoch() != epoch) {
        throw new Rejection("keeps an element read before an inner loop that may change it, and uses it after the loop");
      }
    }
  }

  /**
   * Every read of an array the nest writes is of an element only the same work item writes: the element
   * one of its stores writes (the same index and row), or, in an array of arrays, any element of a row one
   * of its stores writes (guards make the rows of different work items different arrays). So no work item
   * sees another's writes.
   */
  private static void checkOwnElements(List<Stmt> stmts, List<Node> updates, boolean[] written,
      Map<Integer, List<Store>> stores) {
    List<Node> roots = Stmts.roots(stmts);
    roots.addAll(updates);
    for (Node x : Nodes.postOrder(roots)) {
      if (!(x instanceof Load l) || !written[l.array()]) continue;
      boolean own = false;
      for (Store s : stores.get(l.array())) {
        own |= (s.index().equals(l.index()) || l.row() != null) && Objects.equals(s.row(), l.row());
      }
      if (!own) throw new Rejection("carried dependency: reads an element of an array that another iteration writes");
    }
  }

  /** All stores to one array move alike with the loop variables: they differ at most by a constant. */
  private static void checkShapes(Map<Integer, List<Store>> stores) {
    for (List<Store> list : stores.values()) {
      Store first = list.get(0);
      for (Store s : list) {
        if (!Affine.of(s.index()).coefficients().equals(Affine.of(first.index()).coefficients())
            || !Objects.equals(rowShape(s), rowShape(first))) {
          throw new Rejection("writes one array at indices of different shapes");
        }
      }
    }
  }

  private static Map<Node, Node> rowShape(Store s) {
    return s.row() == null ? null : Affine.of(s.row()).coefficients();
  }

  /** True when every store moves with loop variable {@code v}, so different values of it write different elements. */
  private static boolean writesDistinct(Map<Integer, List<Store>> stores, Node v) {
    for (List<Store> list : stores.values()) {
      for (Store s : list) {
        boolean moves = Affine.of(s.index()).coefficients().containsKey(v)
            || (s.row() != null && Affine.of(s.row()).coefficients().containsKey(v));
        if (!moves) return false;
      }
    }
    return true;
  }

  /** The band loops whose iterations are independent: perfectly nested, rectangular, writing distinct elements. */
  private static List<Integer> band(List<Stmt> stmts, Map<Integer, List<Store>> stores, Node outer) {
    List<Integer> parallel = new ArrayList<>();
    List<Node> enclosing = new ArrayList<>(List.of(outer));
    List<Stmt> level = stmts;
    while (level.size() == 1 && level.get(0) instanceof Loop l && isBandLoop(l, enclosing)) {
      LoopVar v = new LoopVar(l.id());
      if (!writesDistinct(stores, v)) break;
      parallel.add(l.id());
      enclosing.add(v);
      level = l.body();
    }
    return parallel;
  }

  /** Always run, carrying nothing, with bounds that do not depend on {@code enclosing} variables. */
  private static boolean isBandLoop(Loop l, List<Node> enclosing) {
    return l.predicate().equals(Const.TRUE) && l.carried().isEmpty()
        && independent(l.start(), enclosing) && independent(l.limit(), enclosing);
  }

  private static boolean independent(Node bound, List<Node> vars) {
    if (bound instanceof Length) return false;
    Affine a = Affine.of(bound);
    return a != null && !Set.copyOf(vars).stream().anyMatch(a.coefficients()::containsKey);
  }
}

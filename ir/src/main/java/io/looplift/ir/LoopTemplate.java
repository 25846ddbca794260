package io.looplift.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The IR of one loop site: what one iteration computes, independent of the arrays and scalars of any
 * particular run. A launch binds it to {@code arrays} (element types {@link #arrays}; the slots in
 * {@link #rowArrays} are arrays of such arrays), a parameter vector ({@link #params}), accumulator initial
 * values ({@link #accumulators}) and a range of the outermost loop's variable, {@link Index}.
 *
 * <p>One iteration runs the statements of {@link #body} in order (see {@link Stmt}), then assigns every
 * reduction update. A <em>flat</em> template's body is stores only, indexed by the one loop variable: the
 * element-wise loops that fusion combines. A <em>nest</em> also has inner {@link Loop}s, reads rows of arrays
 * of arrays, or both; the inner loops run inside each iteration of the outermost loop, in Java's order.
 *
 * @param ordered the outermost loop's iterations must run in order (they depend on each other through
 *     memory); only a nest whose outermost body is a {@link Loop#parallel parallel} loop can be offloaded
 *     then, by running that loop's iterations at once and the outermost loop inside each of them
 */
public final class LoopTemplate {
  private final List<Type> arrays;
  private final List<Type> params;
  private final List<Type> accumulators;
  private final List<Stmt> body;
  private final List<Reduction> reductions;
  private final List<Integer> rowArrays;
  private final boolean ordered;
  private final boolean flat;
  /** Whether a statement reads an accumulator (then no iteration may run before another has finished). */
  private final boolean stmtsReadAccumulators;
  private final boolean[] written;
  private final boolean[] read;
  private final int hash;

  public LoopTemplate(List<Type> arrays, List<Type> params, List<Type> accumulators, List<Stmt> body,
      List<Reduction> reductions, List<Integer> rowArrays, boolean ordered) {
    this.arrays = List.copyOf(arrays);
    this.params = List.copyOf(params);
    this.accumulators = List.copyOf(accumulators);
    this.body = List.copyOf(body);
    this.reductions = List.copyOf(reductions);
    this.rowArrays = List.copyOf(rowArrays);
    this.ordered = ordered;
    if (reductions.size() != accumulators.size()) throw new IllegalArgumentException("one reduction per accumulator");
    if (ordered && !(body.size() == 1 && body.get(0) instanceof Loop l && l.parallel())) {
      throw new IllegalArgumentException("an ordered outer loop needs a parallel loop as its whole body");
    }
    this.flat = computeFlat();
    this.stmtsReadAccumulators = Stmts.roots(this.body).stream().anyMatch(Nodes::readsAccumulator);
    this.written = new boolean[this.arrays.size()];
    for (Store st : allStores()) written[st.array()] = true;
    this.read = new boolean[this.arrays.size()];
    for (Node n : Nodes.postOrder(roots())) {
      if (n instanceof Load l) read[l.array()] = true;
      else if (n instanceof Length l) read[l.array()] = true;
    }
    this.hash = Objects.hash(this.arrays, this.params, this.accumulators, this.body, this.reductions, this.rowArrays,
        ordered);
  }

  /** A template without rows or an ordered outer loop: flat when its statements are stores only. */
  public LoopTemplate(List<Type> arrays, List<Type> params, List<Type> accumulators, List<? extends Stmt> stores,
      List<Reduction> reductions) {
    this(arrays, params, accumulators, List.copyOf(stores), reductions, List.of(), false);
  }

  public List<Type> arrays() { return arrays; }

  public List<Type> params() { return params; }

  public List<Type> accumulators() { return accumulators; }

  /** The statements of one iteration of the outermost loop, in program order. */
  public List<Stmt> body() { return body; }

  public List<Reduction> reductions() { return reductions; }

  /** The argument slots that are arrays of arrays, whose rows the body reads or writes. */
  public List<Integer> rowArrays() { return rowArrays; }

  /** See the class comment. */
  public boolean ordered() { return ordered; }

  /**
   * True for a flat template: stores only, over one-dimensional arrays, every index {@code scale * i +
   * offset} with a constant scale ({@link AffineIndex}). Fusion and the flat code paths of guards and
   * generators handle exactly these; a loop that is not flat runs as a nest even when it has no inner loops.
   */
  public boolean isFlat() {
    return flat;
  }

  private boolean computeFlat() {
    if (!rowArrays.isEmpty() || ordered) return false;
    for (Stmt s : body) {
      if (!(s instanceof Store st) || AffineIndex.of(st.index()) == null) return false;
    }
    for (Node n : Nodes.postOrder(roots(false))) {
      if (n instanceof Load l && (l.row() != null || AffineIndex.of(l.index()) == null)) return false;
    }
    return true;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) return true;
    return other instanceof LoopTemplate t && hash == t.hash && ordered == t.ordered && arrays.equals(t.arrays)
        && params.equals(t.params) && accumulators.equals(t.accumulators) && body.equals(t.body)
        && reductions.equals(t.reductions) && rowArrays.equals(t.rowArrays);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "LoopTemplate[arrays=" + arrays + ", params=" + params + ", accumulators=" + accumulators + ", body=" + body
        + ", reductions=" + reductions + (rowArrays.isEmpty() ? "" : ", rows=" + rowArrays) + (ordered ? ", ordered" : "")
        + "]";
  }

  /** True when argument {@code a} is an array of arrays whose rows the body reads or writes. */
  public boolean isRows(int a) {
    return rowArrays.contains(a);
  }

  /**
   * The stores of a flat template, in program order.
   *
   * @throws IllegalStateException for a nest, whose stores are spread over its loops: see {@link #body()}
   */
  public List<Store> stores() {
    if (!isFlat()) throw new IllegalStateException("a loop nest has no flat list of stores");
    List<Store> stores = new ArrayList<>(body.size());
    for (Stmt s : body) stores.add((Store) s);
    return stores;
  }

  /** Every store of the body, at every depth, in program order. */
  public List<Store> allStores() {
    List<Store> stores = new ArrayList<>();
    collect(body, stores, null);
    return stores;
  }

  /** Every inner loop, at every depth, each before the loops inside it. */
  public List<Loop> loops() {
    List<Loop> loops = new ArrayList<>();
    collect(body, null, loops);
    return loops;
  }

  private static void collect(List<Stmt> stmts, List<Store> stores, List<Loop> loops) {
    for (Stmt s : stmts) {
      if (s instanceof Store st) {
        if (stores != null) stores.add(st);
      } else if (s instanceof Loop l) {
        if (loops != null) loops.add(l);
        collect(l.body(), stores, loops);
      }
    }
  }

  /** The deepest nesting of loops, the outermost one included: 1 for a flat template. */
  public int depth() {
    return 1 + depth(body);
  }

  private static int depth(List<Stmt> stmts) {
    int d = 0;
    for (Stmt s : stmts) {
      if (s instanceof Loop l) d = Math.max(d, 1 + depth(l.body()));
    }
    return d;
  }

  /**
   * True when iterations of the outermost loop may run in any order and in parallel chunks: it is not
   * {@link #ordered}, no store reads an accumulator, and every reduction is splittable (floating-point sums
   * and products only when {@code reassociate}).
   */
  public boolean isParallel(boolean reassociate) {
    if (ordered || stmtsReadAccumulators) return false;
    for (Reduction r : reductions) {
      if (!r.isSplittable() || (!reassociate && r.op().reassociates(r.type()))) return false;
    }
    return true;
  }

  /** True when array {@code a} is written by some store. */
  public boolean writes(int a) {
    return written[a];
  }

  /** Per array, whether some store writes it. */
  public boolean[] writtenArrays() {
    return written.clone();
  }

  /** Per array, whether some load reads it (or the length of one of its rows). */
  public boolean[] readArrays() {
    return read.clone();
  }

  /**
   * Every root node, in program order: of each statement (a store's index, value, predicate and row; a loop's
   * start, limit, predicate, and its carried values' initial values and updates), then the reduction updates.
   */
  public List<Node> roots() {
    return roots(false);
  }

  /**
   * The root nodes of a kernel that computes partial results, each reduction starting from its identity:
   * as {@link #roots()}, but each reduction's {@link Reduction#element() element} (when it has one) instead
   * of its update, which reads the accumulator.
   */
  public List<Node> partialRoots() {
    return roots(true);
  }

  private List<Node> roots(boolean elements) {
    List<Node> roots = stmtRoots();
    for (Reduction r : reductions) roots.add(elements && r.element() != null ? r.element() : r.update());
    return roots;
  }

  private List<Node> stmtRoots() {
    return Stmts.roots(body);
  }
}

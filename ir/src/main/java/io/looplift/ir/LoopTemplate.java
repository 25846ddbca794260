package io.looplift.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * The IR of one loop site: what one iteration computes, independent of the arrays and scalars of any
 * particular run. A launch binds it to {@code arrays} (element types {@link #arrays}), a parameter
 * vector ({@link #params}), accumulator initial values ({@link #accumulators}) and an index range.
 */
public record LoopTemplate(List<Type> arrays, List<Type> params, List<Type> accumulators, List<Store> stores,
    List<Reduction> reductions) {
  public LoopTemplate {
    arrays = List.copyOf(arrays);
    params = List.copyOf(params);
    accumulators = List.copyOf(accumulators);
    stores = List.copyOf(stores);
    reductions = List.copyOf(reductions);
    if (reductions.size() != accumulators.size()) throw new IllegalArgumentException("one reduction per accumulator");
  }

  /**
   * True when iterations may run in any order and in parallel chunks: no store reads an accumulator and
   * every reduction is splittable (floating-point sums and products only when {@code reassociate}).
   */
  public boolean isParallel(boolean reassociate) {
    for (Store s : stores) {
      if (Nodes.readsAccumulator(s.value()) || Nodes.readsAccumulator(s.predicate())) return false;
    }
    for (Reduction r : reductions) {
      if (!r.isSplittable() || (!reassociate && r.op().reassociates(r.type()))) return false;
    }
    return true;
  }

  /** True when array {@code a} is written by some store. */
  public boolean writes(int a) {
    return stores.stream().anyMatch(s -> s.array() == a);
  }

  /** Per array, whether some store writes it. */
  public boolean[] writtenArrays() {
    boolean[] written = new boolean[arrays.size()];
    for (Store s : stores) written[s.array()] = true;
    return written;
  }

  /** Per array, whether some load reads it. */
  public boolean[] readArrays() {
    boolean[] read = new boolean[arrays.size()];
    for (Node n : Nodes.postOrder(roots())) {
      if (n instanceof Load l) read[l.array()] = true;
    }
    return read;
  }

  /** Every root node: store indices, values and predicates, and reduction updates, in program order. */
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
    List<Node> roots = new ArrayList<>();
    for (Store s : stores) {
      roots.add(s.index());
      roots.add(s.value());
      roots.add(s.predicate());
    }
    for (Reduction r : reductions) roots.add(elements && r.element() != null ? r.element() : r.update());
    return roots;
  }
}

package io.looplift.ir;

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

  /** Every root node: store indices, values and predicates, and reduction updates, in program order. */
  public List<Node> roots() {
    var roots = new java.util.ArrayList<Node>();
    for (Store s : stores) {
      roots.add(s.index());
      roots.add(s.value());
      roots.add(s.predicate());
    }
    for (Reduction r : reductions) roots.add(r.update());
    return roots;
  }
}

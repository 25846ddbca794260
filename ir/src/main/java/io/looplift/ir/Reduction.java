package io.looplift.ir;

import java.util.Objects;

/**
 * An accumulator carried across iterations: {@link Acc}({@code acc}) at the start of an iteration becomes
 * {@code update} at its end. When the update has the shape {@code acc op element} (possibly under a
 * condition, folded into {@code element} as the identity), {@code op} and {@code element} are set and the
 * reduction may run in parallel chunks; otherwise both are null and it runs in order.
 */
public record Reduction(int acc, Type type, Node update, ReduceOp op, Node element) {
  public Reduction {
    if (type != type.stackType() || update.type() != type) throw new IllegalArgumentException("reduction over " + type);
    if ((op == null) != (element == null)) throw new IllegalArgumentException("op and element go together");
  }

  /** True when the reduction has a recognized associative shape whose element reads no accumulator. */
  public boolean isSplittable() {
    return op != null && !Nodes.readsAccumulator(element);
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof Reduction r && acc == r.acc && type == r.type && op == r.op && Objects.equals(update, r.update)
        && Objects.equals(element, r.element);
  }

  @Override
  public int hashCode() { return Objects.hash(acc, type, update, op, element); }
}

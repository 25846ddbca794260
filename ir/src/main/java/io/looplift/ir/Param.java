package io.looplift.ir;

/** A loop-invariant scalar input, the {@code index}-th entry of the launch's parameter vector. */
public record Param(int index, Type type) implements Node {
  public Param {
    if (type != type.stackType()) throw new IllegalArgumentException("parameter of " + type);
  }

  @Override
  public String toString() { return "p" + index; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof Param p && index == p.index && type == p.type; }

  @Override
  public int hashCode() { return 37 * index + type.ordinal(); }
}

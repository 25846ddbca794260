package io.looplift.ir;

/**
 * The value an accumulator (a local carried from one iteration to the next) has at the start of the
 * current iteration. Its new value at the end of the iteration is the {@link Reduction#update()}.
 */
public record Acc(int index, Type type) implements Node {
  public Acc {
    if (type != type.stackType()) throw new IllegalArgumentException("accumulator of " + type);
  }

  @Override
  public String toString() { return "acc" + index; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof Acc a && index == a.index && type == a.type; }

  @Override
  public int hashCode() { return 31 * index + type.ordinal(); }
}

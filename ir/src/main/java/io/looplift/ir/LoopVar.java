package io.looplift.ir;

/** The variable of inner {@link Loop} {@code loop} in the current iteration of that loop. */
public record LoopVar(int loop) implements Node {
  @Override
  public Type type() { return Type.INT; }

  @Override
  public String toString() { return "v" + loop; }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof LoopVar v && loop == v.loop; }

  @Override
  public int hashCode() { return 41 * loop + 7; }
}

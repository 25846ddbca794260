package io.looplift.ir;

/** The value of {@link Carried} {@code slot} of {@link Loop} {@code loop} at the start of the current iteration. */
public record CarriedVar(int loop, int slot, Type type) implements Node {
  public CarriedVar {
    if (type != type.stackType()) throw new IllegalArgumentException("carried " + type);
  }

  @Override
  public String toString() { return "c" + loop + "_" + slot; }
}

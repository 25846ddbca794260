package io.looplift.ir;

/**
 * The value of {@link Carried} {@code slot} of {@link Loop} {@code loop} once the loop has run: its initial
 * value when the loop ran no iteration (or its predicate did not hold).
 */
public record LoopOut(int loop, int slot, Type type) implements Node {
  public LoopOut {
    if (type != type.stackType()) throw new IllegalArgumentException("loop result " + type);
  }

  @Override
  public String toString() { return "out" + loop + "_" + slot; }
}

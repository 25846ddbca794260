package io.looplift.ir;

import java.util.Objects;

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

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) { return o instanceof LoopOut v && loop == v.loop && slot == v.slot && type == v.type; }

  @Override
  public int hashCode() { return (43 * loop + slot) * 31 + Objects.hashCode(type); }
}
